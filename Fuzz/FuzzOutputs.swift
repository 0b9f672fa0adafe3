// Target 10: the output rules (Documentation/Guide.md, "Outputs") on every kind of target an output
// may meet — an existing file, a new one, a link to a file, a dangling link, a FIFO with a reader —
// written in chunks the payload decides, then committed, discarded, or committed and taken back
// (`revert()`, what a failing group commit does). Standard input's file is the CLI's check
// (RunOutputs.checkConflicts), outside the library this harness compiles; TrustTests covers it.
import Foundation

func fuzzOutputs(_ bytes: [UInt8]) {
  let kind = fuzzKnob(bytes, 5)  // 0 existing file, 1 new file, 2 link to a file, 3 dangling link, 4 FIFO
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
    FileManager.default.createFile(atPath: target, contents: Data(previous))
  case 2:
    FileManager.default.createFile(atPath: target, contents: Data(previous))
    try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target")
    path = link
  case 3:
    try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target")
    path = link
  case 4:
    guard mkfifo(target, 0o600) == 0 else { return }
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
  let content = FileManager.default.contents(atPath: target).map { Array($0) }
  switch kind {
  case 4:
    // Written where it is, as it went: whatever the ending, the reader has every byte.
    guard received.bytes == bytes else {
      fuzzFailure("the FIFO's reader got \(received.bytes.count) of \(bytes.count) bytes")
    }
    guard names == ["target"] else { fuzzFailure("files left beside a FIFO: \(names)") }
  default:
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
