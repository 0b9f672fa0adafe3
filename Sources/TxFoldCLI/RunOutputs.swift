import ArgumentParser
import TxFold

/// The report, the rejects file and the stats document of one run, from the
/// checks before any reading to the commit or discard at the end; used by
/// every command.
///
/// - Before anything is read or written: an output naming an input, or two
///   outputs naming one file, is a usage error (64); an output that cannot be
///   created (its directory is missing) fails with 73.
/// - While the run goes: rejections are buffered and written to the rejects
///   output; SIGINT and SIGTERM remove the temporary files.
/// - At the end, `commit(stats:)` on success: the stats document is written,
///   all are flushed to disk first, then all renamed into place. `fail(_:)` on
///   failure: on a data error (65) the rejects, complete up to the stop, are
///   committed and the report and stats dropped; on any other failure all are
///   dropped and existing files keep their content.
final class RunOutputs {
  let report: OutputFile
  let rejects: OutputFile?
  /// `--stats FILE`: the run's accounting as a JSON document (`RunStatsDocument`).
  let stats: OutputFile?
  private var rejectsBuffer: [UInt8] = []
  /// Set by `writeInBackground()`: writes the report on a thread of its own.
  private var background: BackgroundWriter?

  /// Checks and opens the outputs. `inputs` are every file the run reads (not `-`).
  init(report reportPath: String?, rejects rejectsPath: String?, stats statsPath: String? = nil, inputs: [String])
    throws
  {
    try Self.checkConflicts(
      outputs: [("--output", reportPath ?? "-"), ("--rejects", rejectsPath), ("--stats", statsPath)], inputs: inputs)
    // An interrupt is held back until the temporary files are protected, so none can be left behind.
    (report, rejects, stats) = try SignalGuard.deferringSignals {
      () throws -> (OutputFile, OutputFile?, OutputFile?) in
      do throws(OutputError) {
        let report = try Self.open(reportPath ?? "-")
        let rejects = try rejectsPath.map { path throws(OutputError) in try Self.open(path) }
        let stats = try statsPath.map { path throws(OutputError) in try Self.open(path) }
        SignalGuard.protect(
          temporaryFiles: [report.temporaryPath, rejects?.temporaryPath, stats?.temporaryPath].compactMap { $0 })
        return (report, rejects, stats)
      } catch {
        throw ExitStatus.fail(error)
      }
    }
  }

  private static func open(_ path: String) throws(OutputError) -> OutputFile {
    if path == "-" && StandardStreams.standardOutputWasClosed {
      throw OutputError(path: "-", reason: "standard output is closed", isCannotCreate: true)
    }
    return try OutputFile.open(path: path)
  }

  /// The rejection callback for a pipeline (nil without `--rejects`).
  var onRejection: ((RecordRejection) throws -> Void)? {
    guard let rejects else { return nil }
    return { [self] rejection in
      RejectsFileWriter.append(CommandLineWording.reword(rejection), to: &rejectsBuffer)
      if rejectsBuffer.count >= 1 << 16 {
        try rejects.write(rejectsBuffer)
        rejectsBuffer.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Writes report bytes and empties `buffer`.
  func write(_ buffer: inout [UInt8]) throws(OutputError) {
    if let background {
      try background.write(&buffer)
      return
    }
    try report.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// From now on the report is written on a thread of its own
  /// (`BackgroundWriter`), for a command whose main thread is busy rendering
  /// while another thread feeds it.
  func writeInBackground() {
    if background == nil { background = BackgroundWriter(file: report) }
  }

  /// Stops the background writer, if one runs, once it has written everything.
  private func finishBackground() throws(OutputError) {
    guard let background else { return }
    self.background = nil
    try background.finish()
  }

  /// After a successful run: every output into place, or, when one cannot
  /// be finished, none (exit 74). `stats` makes the `--stats` document; it is
  /// called only when there is one to write.
  func commit(stats document: () -> [UInt8] = { [] }) throws {
    do throws(OutputError) {
      try SignalGuard.deferringSignals { () throws(OutputError) in
        try finishBackground()
        if let rejects { try rejects.write(rejectsBuffer) }
        rejectsBuffer.removeAll()
        if let stats { try stats.write(document()) }
        try rejects?.flush()
        try stats?.flush()
        try report.flush()
        try rejects?.commit()
        try stats?.commit()
        try report.commit()
      }
    } catch {
      throw fail(ExitStatus.fail(error))
    }
    SignalGuard.protect(temporaryFiles: [])
  }

  /// After a failed run, given its exit code: keeps the rejects on a data
  /// error (they explain it) or a closed output pipe, drops everything else.
  /// Returns the exit code to use (74 when the rejects could not be written).
  func fail(_ code: ExitCode) -> ExitCode {
    var result = code
    // What it was writing is dropped with the file; only its thread must stop first.
    try? finishBackground()
    report.discard()
    stats?.discard()
    if let rejects {
      if code.rawValue == ExitStatus.dataError || code == .success {
        do throws(OutputError) {
          try rejects.write(rejectsBuffer)
          try rejects.commit()
        } catch {
          rejects.discard()
          result = ExitStatus.fail(error)
          if result == .success { result = code }
        }
      } else {
        rejects.discard()
      }
    }
    rejectsBuffer.removeAll()
    SignalGuard.protect(temporaryFiles: [])
    return result
  }

  /// Refuses, before anything is read or written, an output that is one of
  /// the inputs or the other output: replacing it would destroy the input,
  /// and two outputs in one file would mix or lose one of them.
  static func checkConflicts(report: String?, rejects: String?, inputs: [String]) throws {
    try checkConflicts(outputs: [("--output", report), ("--rejects", rejects)], inputs: inputs)
  }

  /// `checkConflicts(report:rejects:inputs:)` for any outputs, each named by its
  /// option (a `nil` path is an output not asked for).
  static func checkConflicts(outputs given: [(String, String?)], inputs: [String]) throws {
    let outputs = given.compactMap { option, path in path.map { (option, $0) } }
    for (option, path) in outputs where path != "-" {
      guard let identity = FileIdentity(path: path) else { continue }
      for input in inputs where input != "-" && FileIdentity(path: input) == identity {
        throw ValidationError("\(option) '\(path)' is the input '\(input)'; it would be overwritten.")
      }
    }
    for (index, (firstOption, first)) in outputs.enumerated() {
      for (secondOption, second) in outputs[(index + 1)...] where sameFile(first, second) {
        throw ValidationError(
          "\(firstOption) '\(first)' and \(secondOption) '\(second)' are the same file; give each its own.")
      }
    }
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
