// Target 10: the output rules (Documentation/Guide.md, "Outputs") on every kind of target an output
// may meet — an existing file, a new one, a link to a file, a dangling link, a FIFO with a reader —
// written in chunks the payload decides, then committed, discarded, or committed and taken back
// (`revert()`, what a failing group commit does); and standard input's file, which the conflict
// rule (`OutputConflicts`, the check the CLI runs before anything is read) must refuse as an
// output by any path that names it, given a descriptor of the harness's own as standard input.
import Foundation

func fuzzOutputs(_ bytes: [UInt8]) {
  // 0 existing file, 1 new file, 2 link to a file, 3 dangling link, 4 FIFO, 5 standard input's file
  let kind = fuzzKnob(bytes, 6)
  let ending = fuzzKnob(Array(bytes.reversed()), 3)  // 0 commit, 1 discard, 2 commit then revert
  let chunk = 1 + fuzzKnob(Array(bytes.prefix(8)), 97)
  let directory = NSTemporaryDirectory() + "txfold-fuzz-outputs-\(UUID().uuidString)"
  guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)) != nil
  else { return }
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let target = directory + "/target"
  let link = directory + "/link"
  let previous = Array("the previous content\n".utf8)
  var path = target
  switch kind {
  case 0:
    _ = FileManager.default.createFile(atPath: target, contents: Data(previous))
  case 2:
    _ = FileManager.default.createFile(atPath: target, contents: Data(previous))
    try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target")
    path = link
  case 3:
    try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target")
    path = link
  case 4:
    guard mkfifo(target, 0o600) == 0 else { return }
  case 5:
    fuzzStandardInputFile(bytes, in: directory)
    return
  default:
    break
  }

  // A FIFO's reader, on a thread of its own: opening the FIFO to write waits for it.
  final class Received: @unchecked Sendable { var bytes: [UInt8] = [] }
  let received = Received()
  let readerDone = DispatchSemaphore(value: 0)
  if kind == 4 {
    Thread.detachNewThread {
      if let handle = FileHandle(forReadingAtPath: target) {
        received.bytes = Array(handle.readDataToEndOfFile())
        try? handle.close()
      }
      readerDone.signal()
    }
  }

  let file: OutputFile
  do throws(OutputError) {
    file = try OutputFile.open(path: path)
  } catch {
    fuzzFailure("an output of kind \(kind) could not be opened: \(error)")
  }
  do throws(OutputError) {
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      try file.write(Array(bytes[offset..<end]))
      offset = end
    }
    switch ending {
    case 0: try file.commit()
    case 1: file.discard()
    default:
      try file.prepareCommit()
      try file.commit()
      file.revert()
    }
  } catch {
    fuzzFailure("writing an output of kind \(kind) failed: \(error)")
  }
  if kind == 4 && readerDone.wait(timeout: .now() + 10) == .timedOut {
    fuzzFailure("the FIFO's reader never saw the end of the output")
  }

  let committed = ending == 0
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []
  switch kind {
  case 4:
    // Written where it is, as it went: whatever the ending, the reader has every byte.
    guard received.bytes == bytes else {
      fuzzFailure("the FIFO's reader got \(received.bytes.count) of \(bytes.count) bytes")
    }
    guard names == ["target"] else { fuzzFailure("files left beside a FIFO: \(names)") }
  default:
    // Not for the FIFO: opening one to read waits for a writer that no longer comes.
    let content = fuzzReadFile(target)
    let hadFile = kind == 0 || kind == 2
    let expectedContent: [UInt8]? = committed ? bytes : (hadFile ? previous : nil)
    guard content == expectedContent else {
      fuzzFailure("kind \(kind), ending \(ending): the target holds \(content?.count ?? -1) bytes, not the expected")
    }
    var expectedNames = kind >= 2 ? ["link"] : []
    if committed || hadFile { expectedNames.append("target") }
    guard names == expectedNames.sorted() else {
      fuzzFailure("kind \(kind), ending \(ending): the directory holds \(names), not \(expectedNames)")
    }
    if kind >= 2 {
      let linkType = (try? FileManager.default.attributesOfItem(atPath: link))?[.type] as? FileAttributeType
      guard linkType == .typeSymbolicLink else { fuzzFailure("the link is no longer a link") }
    }
  }
}

/// Kind 5: the payload is the dump on standard input — a file of the scratch directory, open as
/// the descriptor handed to `OutputConflicts` instead of the process's standard input. An output
/// naming that file by any path (itself, a link, a chain of links, a hard link, `sub/../dump`,
/// `./dump`, `//dump`) is refused — as the file on standard input when `-` is read, as the input
/// when the file is read by a path of its own — and so is standard output appending to it; a
/// distinct output (an existing file, a new one, a dangling link) is not, and is then written and
/// committed. Throughout, the file keeps the payload's bytes and nothing is left beside it.
private func fuzzStandardInputFile(_ bytes: [UInt8], in directory: String) {
  let dump = directory + "/dump"
  let previous = Array("the previous content\n".utf8)
  let manager = FileManager.default
  guard manager.createFile(atPath: dump, contents: Data(bytes)),
    manager.createFile(atPath: directory + "/other", contents: Data(previous)),
    (try? manager.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)) != nil,
    (try? manager.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "dump")) != nil,
    (try? manager.createSymbolicLink(atPath: directory + "/chain", withDestinationPath: directory + "/link")) != nil,
    (try? manager.linkItem(atPath: dump, toPath: directory + "/hard")) != nil,
    (try? manager.createSymbolicLink(atPath: directory + "/dangling", withDestinationPath: "nowhere")) != nil,
    let standardInput = FileHandle(forReadingAtPath: dump)
  else { fuzzFailure("the scratch directory of standard input's file could not be made") }
  defer { try? standardInput.close() }

  // Every setting from one hash of the payload, so that an input always runs the same way.
  var knobs = fuzzKnob(Array(bytes.suffix(32).reversed()) + [5], 1 << 30)
  func knob(_ count: Int) -> Int {
    defer { knobs /= count }
    return knobs % count
  }
  let spellings = ["dump", "link", "chain", "hard", "sub/../dump", "./dump", "/dump"].map { directory + "/" + $0 }
  let spelling = spellings[knob(spellings.count)]
  let name = ["--output", "--rejects", "--stats"][knob(3)]
  // The file is read as standard input (`-`), or by a path of its own (another spelling).
  let readAsPath = knob(2) == 1
  let inputPath = spellings[knob(spellings.count)]
  let inputs = readAsPath ? [inputPath] : ["-"]
  let allowed = ["other", "new", "dangling"].map { directory + "/" + $0 }[knob(3)]
  // The conflicting output alone, or after the report on standard output (with no file there).
  var outputs: [(name: String, path: String?)] = name == "--output" ? [] : [(name: "--output", path: "-")]
  outputs.append((name: name, path: spelling))
  let expected: OutputConflict =
    readAsPath
    ? .isInput(output: name, path: spelling, input: inputPath) : .isStandardInput(output: name, path: spelling)

  func check(_ outputs: [(name: String, path: String?)], _ inputs: [String], standardOutput: Int32 = -1)
    -> OutputConflict?
  {
    do throws(OutputConflict) {
      try OutputConflicts.check(
        outputs: outputs, inputs: inputs, standardInput: standardInput.fileDescriptor, standardOutput: standardOutput)
      return nil
    } catch {
      return error
    }
  }
  func dumpIsKept(_ when: String) {
    guard fuzzReadFile(dump) == bytes else {
      fuzzFailure("standard input's file changed \(when)")
    }
  }

  let refused = check(outputs, inputs)
  guard refused == expected else {
    fuzzFailure(
      "an output naming standard input's file (\(spelling), inputs \(inputs)): \(String(describing: refused))")
  }
  let saysStandardInput = refused?.description.contains("is the file on standard input; it would be overwritten")
  if !readAsPath && saysStandardInput != true {
    fuzzFailure("the refusal does not say the output is the file on standard input: \(String(describing: refused))")
  }
  dumpIsKept("when its output was refused")
  // Standard input counts only when it is read.
  if let conflict = check(outputs, []) { fuzzFailure("refused with nothing read: \(conflict)") }

  // Standard output appending to the file (`>> dump < dump`) is refused too.
  let appending = open(dump, O_WRONLY | O_APPEND)
  guard appending >= 0 else { fuzzFailure("standard input's file could not be opened to append") }
  let standardOutputRefused = check([(name: "--output", path: "-")], ["-"], standardOutput: appending)
  close(appending)
  guard standardOutputRefused == .standardOutputIsStandardInput else {
    fuzzFailure("standard output on standard input's file: \(String(describing: standardOutputRefused))")
  }

  // A distinct output is not refused, and writing it leaves the file on standard input as it was.
  let distinct = [(name: name, path: Optional(allowed))]
  if let conflict = check(distinct, inputs) { fuzzFailure("a distinct output was refused: \(conflict)") }
  do throws(OutputError) {
    let file = try OutputFile.open(path: allowed)
    try file.write(Array(bytes.reversed()))
    try file.commit()
  } catch {
    fuzzFailure("the distinct output \(allowed) could not be written: \(error)")
  }
  guard fuzzReadFile(allowed) == Array(bytes.reversed()) else {
    fuzzFailure("the distinct output \(allowed) does not hold the bytes written")
  }
  dumpIsKept("when a distinct output was written")
  // What the descriptor reads is still the payload.
  guard (try? standardInput.seek(toOffset: 0)) != nil, Array(standardInput.readDataToEndOfFile()) == bytes else {
    fuzzFailure("standard input no longer reads the payload")
  }
  let names = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
  if let left = names.first(where: { $0.contains(".txfold-") }) { fuzzFailure("a temporary file was left: \(left)") }
}
