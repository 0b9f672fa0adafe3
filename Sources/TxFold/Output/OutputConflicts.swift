/// The rule that a run's outputs must not destroy its inputs or each other,
/// checked before anything is read or written (Documentation/Guide.md,
/// "Outputs"): an output that is one of the inputs — also the file on
/// standard input — or the other output — also the file standard output is
/// — is refused, as is an empty path, and an input that can be read only once
/// (a FIFO, a device) named twice.
///
/// Standard input and output count by the files they are: `< dump.jsonl`
/// with `-o dump.jsonl` would replace the dump, and `> s.json` with
/// `--stats s.json` would lose the report. Only regular files are compared
/// so: a device or FIFO is written where it is, never replaced. The
/// descriptors are parameters, so that a test or the fuzz harness can hand in
/// a file of its own instead of the process's standard input; the
/// command-line tool (`RunOutputs`) passes `SystemCalls.standardInput` and
/// `SystemCalls.standardOutput`.
package enum OutputConflicts {
  /// Throws the first conflict among `outputs` (each named as its messages
  /// name it, `--output` say, with a `nil` path for an output not asked for;
  /// `-` is standard output) and `inputs` (every file the run reads, `-` for
  /// standard input). `standardInput` is consulted only when an input is `-`;
  /// a descriptor that is not open, or not a regular file, is no file.
  /// `directory` is a directory of pages (`--output-dir`), which no output file may be inside:
  /// it must be new or empty, and holds the pages only.
  package static func check(
    outputs given: [(name: String, path: String?)], inputs: [String], standardInput: Int32, standardOutput: Int32,
    directory: (name: String, path: String)? = nil
  ) throws(OutputConflict) {
    let outputs = given.compactMap { name, path in path.map { (name: name, path: $0) } }
    for output in outputs where output.path.isEmpty {
      throw .emptyPath(output: output.name)
    }
    if let directory {
      for (name, path) in outputs where path != "-" {
        // Refused now, not when the file is written into the directory at the end of the run.
        if sameFile(withoutTrailingSlashes(path), withoutTrailingSlashes(directory.path)) {
          throw .isDirectory(output: name, path: path, directoryOption: directory.name, directory: directory.path)
        }
        if isInside(path, directory: directory.path) {
          throw .insideDirectory(output: name, path: path, directoryOption: directory.name, directory: directory.path)
        }
      }
    }
    try checkInputsReadOnce(inputs)
    let inputFile = inputs.contains("-") ? FileIdentity(regularFileOn: standardInput) : nil
    let outputFile = FileIdentity(regularFileOn: standardOutput)
    for (name, path) in outputs {
      if path == "-" {
        guard let outputFile else { continue }
        if outputFile == inputFile { throw .standardOutputIsStandardInput }
        for input in inputs where input != "-" && FileIdentity(path: input) == outputFile {
          throw .standardOutputIsInput(input: input)
        }
        continue
      }
      guard let identity = FileIdentity(path: path) else { continue }
      if let inputFile, identity == inputFile {
        throw .isStandardInput(output: name, path: path)
      }
      if let outputFile, identity == outputFile, outputs.contains(where: { $0.path == "-" }) {
        throw .isStandardOutput(output: name, path: path)
      }
      for input in inputs where input != "-" && FileIdentity(path: input) == identity {
        throw .isInput(output: name, path: path, input: input)
      }
    }
    for (index, first) in outputs.enumerated() {
      for second in outputs[(index + 1)...] where sameFile(first.path, second.path) {
        throw .sameFile(output: first.name, path: first.path, other: second.name, otherPath: second.path)
      }
    }
  }

  /// Refuses an input that is not a regular file (a FIFO, a device) named
  /// twice: the first reading takes what its writer sends, and the second
  /// would wait for a writer that never comes.
  private static func checkInputsReadOnce(_ inputs: [String]) throws(OutputConflict) {
    var seen: [FileIdentity] = []
    for input in inputs where input != "-" {
      guard let status = SystemCalls.status(ofPath: input), !status.isRegularFile, !status.isDirectory else { continue }
      let identity = FileIdentity(status)
      if seen.contains(identity) { throw .inputNamedTwice(input: input) }
      seen.append(identity)
    }
  }

  /// Whether the file `path` names (its final target, through links) would be in `directory` or
  /// below it; both resolved through the links of the directories that exist.
  private static func isInside(_ path: String, directory: String) -> Bool {
    let target = FileIdentity.normalized((try? OutputFile.finalTarget(of: path)) ?? path)
    let resolved = FileIdentity.normalized(withoutTrailingSlashes(directory))
    guard let slash = target.lastIndex(of: "/") else { return false }
    let parent = String(target[..<slash])
    return parent == resolved || parent.hasPrefix(resolved + "/")
  }

  /// `path` without the slashes that end it (but `/`): `pages/` names what `pages` names.
  private static func withoutTrailingSlashes(_ path: String) -> String {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// Whether two output paths name one file (or both standard output).
  private static func sameFile(_ first: String, _ second: String) -> Bool {
    if first == "-" || second == "-" { return first == second }
    if let one = FileIdentity(path: first), let other = FileIdentity(path: second) { return one == other }
    // Neither exists yet (or one): the same final target makes them one file.
    return (try? OutputFile.finalTarget(of: first)).map(FileIdentity.normalized)
      == (try? OutputFile.finalTarget(of: second)).map(FileIdentity.normalized)
  }
}

/// Why `OutputConflicts.check` refused a run's outputs: each case names the
/// outputs (as the caller named them) and paths involved.
package enum OutputConflict: Error, Sendable, Equatable, CustomStringConvertible {
  /// An output's path is empty.
  case emptyPath(output: String)
  /// An input that is not a regular file is named twice.
  case inputNamedTwice(input: String)
  /// Standard output is the regular file on standard input.
  case standardOutputIsStandardInput
  /// Standard output is the file an input path names.
  case standardOutputIsInput(input: String)
  /// An output path names the file on standard input.
  case isStandardInput(output: String, path: String)
  /// An output path names the file standard output writes the report to.
  case isStandardOutput(output: String, path: String)
  /// An output path names an input's file.
  case isInput(output: String, path: String, input: String)
  /// Two outputs name one file.
  case sameFile(output: String, path: String, other: String, otherPath: String)
  /// An output file is inside the directory of pages (`--output-dir`).
  case insideDirectory(output: String, path: String, directoryOption: String, directory: String)
  /// An output file is the directory of pages (`--output-dir`) itself.
  case isDirectory(output: String, path: String, directoryOption: String, directory: String)

  /// The sentence, with every path (never an output's name) passed through
  /// `escape`: the command-line tool gives its escaping of control characters.
  package func message(escaping escape: (String) -> String) -> String {
    switch self {
    case .emptyPath(let output):
      return "\(output) is an empty path; name a file, or '-' for standard output."
    case .inputNamedTwice(let input):
      return "The input '\(escape(input))' is named twice and is not a regular file (a FIFO or a device): "
        + "it can be read only once."
    case .standardOutputIsStandardInput:
      return "Standard output is the file on standard input; it would be overwritten."
    case .standardOutputIsInput(let input):
      return "Standard output is the input '\(escape(input))'; it would be overwritten."
    case .isStandardInput(let output, let path):
      return "\(output) '\(escape(path))' is the file on standard input; it would be overwritten."
    case .isStandardOutput(let output, let path):
      return "\(output) '\(escape(path))' is the file standard output writes the report to; give each its own."
    case .isInput(let output, let path, let input):
      return "\(output) '\(escape(path))' is the input '\(escape(input))'; it would be overwritten."
    case .sameFile(let output, let path, let other, let otherPath):
      return "\(output) '\(escape(path))' and \(other) '\(escape(otherPath))' are the same file; give each its own."
    case .insideDirectory(let output, let path, let directoryOption, let directory):
      return "\(output) '\(escape(path))' is inside \(directoryOption) '\(escape(directory))', which must be new or "
        + "empty and holds the pages only; write it elsewhere."
    case .isDirectory(let output, let path, let directoryOption, let directory):
      return "\(output) '\(escape(path))' and \(directoryOption) '\(escape(directory))' are the same path; give "
        + "each its own."
    }
  }

  /// The sentence with the paths as given.
  package var description: String { message(escaping: { $0 }) }
}
