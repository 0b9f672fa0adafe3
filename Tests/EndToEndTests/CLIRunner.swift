import Foundation

/// Runs the built `txfold` binary and captures what it does.
struct CLIRunner {
  struct Outcome {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `txfold` next to the test bundle (the same build directory), or `TXFOLD_BINARY`
  /// (to run the tests against another build, e.g. to see a new test fail on an old one).
  static let binary: URL = {
    // Every txfold a test starts, by any spawner, inherits this: it sorts with `--memory-limit`
    // as given, however small (`SortMemory`), since the tests spill small inputs on purpose;
    // a test of the floor itself sets it empty.
    setenv("TXFOLD_MIN_SORT_MEMORY", "1", 0)
    if let path = ProcessInfo.processInfo.environment["TXFOLD_BINARY"] { return URL(fileURLWithPath: path) }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("txfold")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/txfold")
  }()

  static func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
  }

  /// Whether `condition` came true within `milliseconds`, looked at every
  /// millisecond: a signal test's wait for a running `txfold` to reach the
  /// point it is to be stopped at.
  static func waitUntil(milliseconds: Int, _ condition: () -> Bool) -> Bool {
    for _ in 0..<milliseconds {
      if condition() { return true }
      usleep(1_000)
    }
    return false
  }

  static func sample(_ name: String) -> String {
    packageRoot.appendingPathComponent("SampleData").appendingPathComponent(name).path
  }

  /// `../shared/peers` next to the package: real files from public repositories (see its README).
  static let peers = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/peers")
  static var peersAvailable: Bool { FileManager.default.fileExists(atPath: peers.path) }

  /// Runs `txfold arguments` with `stdin` bytes, in `environment` (added to a clean one), in `directory`.
  static func run(
    _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], in directory: URL? = nil
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    // The report's locale, width and colour follow these; a test that wants them passes them.
    for name in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "LC_ALL", "LC_MESSAGES", "LANG", "COLUMNS"] {
      env.removeValue(forKey: name)
    }
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
      // Write on another thread so a large input cannot deadlock against the output pipe.
      let writer = input.fileHandleForWriting
      let data = Data(stdin)
      Thread.detachNewThread {
        writer.write(data)
        try? writer.close()
      }
    }
    let collected = ErrorCollector(errors.fileHandleForReading)
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, stdout: Array(stdout), stderr: collected.finish())
  }

  /// A scratch directory for one test.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)
  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }
  func finish() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

extension CLIRunner {
  /// Runs txfold with `arguments` writing into a pipe whose reader (`head -c 100`)
  /// closes it early; returns txfold's exit status, as the shell saw it, and its
  /// standard error.
  static func runIntoClosedPipe(_ arguments: [String]) throws -> (status: String, errors: String) {
    let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let script = quoted.joined(separator: " ") + " | head -c 100 >/dev/null; echo \"status=${PIPESTATUS[0]}\""
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (text.trimmingCharacters(in: .whitespacesAndNewlines), errorText)
  }
}
