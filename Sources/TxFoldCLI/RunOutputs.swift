import ArgumentParser
import Foundation
import TxFold

/// The report, the rejects file and the stats document of one run, from the
/// checks before any reading to the commit or discard at the end; used by
/// every command.
///
/// - Before anything is read or written: an output naming an input (also
///   the file on standard input), two outputs naming one file (also the file
///   standard output is), or an empty path is a usage error (64); an output
///   that cannot be created (its directory is missing) fails with 73.
/// - While the run goes: rejections are buffered and written to the rejects
///   output; SIGINT and SIGTERM remove the temporary files and write the
///   stats document with 130 or 143.
/// - At the end, `commit(stats:)` on success, `fail(_:)` on failure: see
///   their documentation, and Documentation/Decisions.md ("Committing a
///   run's outputs") for why the order is what it is. The stats document is
///   written on every exit, always last.
final class RunOutputs {
  let report: OutputFile
  let rejects: OutputFile?
  /// `--stats FILE`: the run's accounting as a JSON document (`RunStatsDocument`).
  let stats: OutputFile?
  /// `--state-out FILE`: tonight's state, committed after the report and before the stats document.
  let state: OutputFile?
  private let command: String
  private var rejectsBuffer: [UInt8] = []
  /// Set once the rejects' reader closed its end of the pipe (`--rejects -` into `head`): the
  /// rejects are a side stream, so the run goes on and writes its report, and the rest of the
  /// rejections are counted (the stats say how many), not written (Decisions, "A closed rejects
  /// pipe ends the rejects, not the run").
  private var rejectsClosed = false
  /// The rejections reported so far, per reason: the counts a failed run's stats document has.
  private var rejectionsSoFar: [RejectReason: Int] = [:]
  /// Set by `writeInBackground()`: writes the report on a thread of its own.
  private var background: BackgroundWriter?
  /// `--output-dir`: a directory of pages, committed with the other outputs (`attach(directory:)`).
  private(set) var directory: OutputDirectory?

  /// Checks and opens the outputs. `inputs` are every file the run reads (`-` for standard input)
  /// but `nightly`'s `--state-in`, which is added after them; `directory` is `--output-dir`, which
  /// `attach(directory:)` opens later and no output file may be inside.
  init(
    command: String, report reportPath: String?, rejects rejectsPath: String?, stats statsPath: String? = nil,
    inputs: [String], nightly: NightlyArguments? = nil, directory: String? = nil
  ) throws {
    let statePath = nightly?.stateOut
    // Last night's state is read like an export: no output may replace it, and the stats name it.
    let inputs = inputs + (nightly?.stateIn.map { [$0] } ?? [])
    do {
      try Self.checkConflicts(
        outputs: [
          ("--output", reportPath ?? "-"), ("--rejects", rejectsPath), ("--stats", statsPath),
          ("--state-out", statePath),
        ],
        inputs: inputs, directory: directory)
    } catch let error as ValidationError {
      // Found after parsing, so the parser would print the top command's usage: say it here, with the right help.
      ExitStatus.complain("\(error.message) See 'txfold \(command) --help'.")
      throw ExitCode.validationFailure
    }
    self.command = command
    RunRecord.current = RunRecord(command: command, inputs: inputs, changedOnly: nightly?.changedOnly ?? false)
    var opened: [OutputFile] = []
    // The stats document first, so that an output that cannot be created is in it.
    let stats: OutputFile?
    do throws(OutputError) {
      stats = try statsPath.map { path throws(OutputError) in try Self.open(path, joining: &opened) }
    } catch {
      SignalGuard.protect(temporaryFiles: [])
      throw ExitStatus.fail(error)
    }
    if let stats {
      // From now on an interrupt writes the document too, also while a FIFO output below waits for its reader.
      SignalGuard.onTermination { signal in
        RunRecord.noteFailure("interrupted by \(signal == SignalSet.interrupt ? "SIGINT" : "SIGTERM")")
        Self.writeStats(to: stats, command: command, exitStatus: 128 + signal, rejectionsSoFar: [:])
      }
    }
    do throws(OutputError) {
      report = try Self.open(reportPath ?? "-", joining: &opened)
      rejects = try rejectsPath.map { path throws(OutputError) in try Self.open(path, joining: &opened) }
      state = try statePath.map { path throws(OutputError) in
        // A state is replaced atomically or not at all: never written into a FIFO or a device.
        guard !OutputFile.writesInPlace(path: path) else {
          throw OutputError(
            path: path, reason: "--state-out must name a regular file (or a new one): it is replaced atomically",
            isCannotCreate: true)
        }
        return try Self.open(path, joining: &opened)
      }
    } catch {
      let code = ExitStatus.fail(error)
      SignalGuard.deferringSignals {
        SignalGuard.onTermination(nil)
        for file in opened where file !== stats { file.discard() }
        if let stats { Self.writeStats(to: stats, command: command, exitStatus: code.rawValue, rejectionsSoFar: [:]) }
        SignalGuard.settle(exitStatus: code.rawValue)
      }
      SignalGuard.protect(temporaryFiles: [])
      throw code
    }
    self.stats = stats
    if inputs.contains("-") && StandardStreams.standardInputWasClosed {
      ExitStatus.complainOfFailure("standard input is closed; name the input file, or give the dump on standard input.")
      throw fail(ExitCode(ExitStatus.cannotOpenInput))
    }
  }

  /// Opens one output and adds it to `opened`, whose temporary files the
  /// interrupt cleanup then removes. An existing FIFO or device is opened
  /// without holding back interrupts: opening a FIFO waits for its reader,
  /// and an interrupt must still end the run meanwhile.
  private static func open(_ path: String, joining opened: inout [OutputFile]) throws(OutputError) -> OutputFile {
    if path == "-" && StandardStreams.standardOutputWasClosed {
      throw OutputError(path: "-", reason: "standard output is closed", isCannotCreate: true)
    }
    if OutputFile.writesInPlace(path: path) {
      let file = try OutputFile.open(path: path)
      opened.append(file)
      return file
    }
    // An interrupt is held back until the temporary file is protected, so none can be left behind.
    return try SignalGuard.deferringSignals { () throws(OutputError) -> OutputFile in
      let file = try OutputFile.open(path: path)
      opened.append(file)
      SignalGuard.protect(temporaryFiles: opened.compactMap(\.temporaryPath))
      return file
    }
  }

  /// Opens `path` as the run's directory of pages (`OutputDirectory`: a new or empty
  /// directory, no link), before anything is read; it is committed with the other
  /// outputs, and removed on failure and on SIGINT or SIGTERM.
  func attach(directory path: String) throws {
    let opened: OutputDirectory
    do throws(OutputError) {
      opened = try SignalGuard.deferringSignals { () throws(OutputError) -> OutputDirectory in
        let opened = try OutputDirectory.open(path: path)
        SignalGuard.onCleanup { opened.discard() }
        return opened
      }
    } catch {
      throw fail(ExitStatus.fail(error))
    }
    directory = opened
  }

  /// An incremental run's state (`NightlyArguments.open`), written by `commit(state:)`.
  var nightly: NightlyState?

  /// Writes tonight's state (`--state-out`) to its temporary file; `commit` puts it in place.
  private func writeState(stats: RunStats) throws {
    guard let state, let nightly, let descriptor = state.temporaryPath.map({ _ in state.fileDescriptor }) else {
      return
    }
    do {
      try nightly.write(toDescriptor: descriptor, name: state.name, stats: stats)
    } catch let error as OutputError {
      throw fail(ExitStatus.fail(error))
    } catch let error as PipelineError {
      throw fail(ExitStatus.fail(error))
    } catch {
      ExitStatus.complainOfFailure("cannot write the state: \(error)")
      throw fail(ExitCode(ExitStatus.ioError))
    }
  }

  /// The rejection callback for a pipeline (nil without `--rejects` and `--stats`).
  var onRejection: ((RecordRejection) throws -> Void)? {
    guard rejects != nil || stats != nil else { return nil }
    return { [self] rejection in
      rejectionsSoFar[rejection.reason, default: 0] += 1
      guard rejects != nil, !rejectsClosed else { return }
      RejectsFileWriter.append(CommandLineWording.reword(rejection), to: &rejectsBuffer)
      if rejectsBuffer.count >= 1 << 16 { try writeRejects() }
    }
  }

  /// Writes the buffered rejections and empties the buffer. A closed pipe ends the rejects, not
  /// the run (`rejectsClosed`); any other failure is the caller's.
  private func writeRejects() throws(OutputError) {
    defer { rejectsBuffer.removeAll(keepingCapacity: true) }
    guard let rejects, !rejectsClosed else { return }
    do throws(OutputError) {
      try rejects.write(rejectsBuffer)
    } catch  where error.isBrokenPipe {
      rejectsClosed = true
      ExitStatus.complain(
        "the reader of --rejects '\(Printable.escaped(rejects.name))' closed its end of the pipe; "
          + "the rest of the rejected records are counted, not written")
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

  /// After a successful run: every output in place, or, when one cannot be
  /// finished, none (exit 74, every existing file as it was).
  ///
  /// All are written and flushed to disk first; then the report and the
  /// rejects file are renamed into place, each keeping its target's previous
  /// content under a second name until the end; the stats document comes
  /// last, as it says how the run ended. A rename that fails puts back what
  /// was already renamed. `stats` makes the `--stats` document; it is called
  /// only when there is one to write.
  ///
  /// `state` is the run's stats, which an incremental run's state records
  /// (`--state-out`, written here, before the renames).
  func commit(state runStats: RunStats? = nil, stats document: () -> [UInt8] = { [] }) throws {
    if let runStats { try writeState(stats: runStats) }
    do throws(OutputError) {
      try SignalGuard.deferringSignals { () throws(OutputError) in
        SignalGuard.onTermination(nil)
        try finishBackground()
        try writeRejects()
        let group = [report, rejects, state].compactMap { $0 }
        for file in group { try file.prepareCommit() }
        do throws(OutputError) {
          try directory?.commit()
          for file in group { try file.commit() }
          if let stats {
            try stats.write(document())
            try stats.prepareCommit()
            try stats.commit()
          }
        } catch {
          for file in group { file.revert() }
          directory?.revert()
          stats?.discard()
          throw error
        }
        for file in group { file.dropBackup() }
        stats?.dropBackup()
        SignalGuard.onCleanup(nil)
        SignalGuard.settle(exitStatus: 0)
      }
    } catch {
      throw fail(ExitStatus.fail(error))
    }
    SignalGuard.protect(temporaryFiles: [])
  }

  /// Starts a `list` or `summary` pipeline: its progress line goes before
  /// anything else is printed, whether it started or failed.
  func start<Run>(_ summary: RunSummary, _ run: () throws(PipelineError) -> Run) throws -> Run {
    do throws(PipelineError) {
      let started = try run()
      summary.clearProgress()
      return started
    } catch {
      summary.clearProgress()
      throw fail(ExitStatus.fail(error))
    }
  }

  /// Runs `write`, which writes to these outputs; its failure fails them.
  func writing(_ write: () throws(OutputError) -> Void) throws {
    do throws(OutputError) {
      try write()
    } catch {
      throw fail(ExitStatus.fail(error))
    }
  }

  /// The loop of a per-account output: each account `next` hands out goes to
  /// `write`, until `nil`. A failure of either fails the outputs: `next`'s
  /// with the exit code `failure` makes of it.
  func forEachAccount<Account, Failure: Error>(
    next: () throws(Failure) -> Account?, failure: (Failure) -> ExitCode,
    write: (Account) throws(OutputError) -> Void
  ) throws {
    while true {
      let account: Account?
      do throws(Failure) {
        account = try next()
      } catch {
        throw fail(failure(error))
      }
      guard let account else { return }
      try writing { () throws(OutputError) in try write(account) }
    }
  }

  /// How every reading command ends, so that the `--stats` document and the
  /// line on standard error always tell the same run.
  func finish(stats: RunStats, summary: RunSummary, started: ContinuousClock.Instant) throws {
    try commit(state: stats) {
      RunStatsDocument.render(command: command, stats: stats, elapsed: .now - started)
    }
    summary.finish(stats: stats, elapsed: ContinuousClock.now - started)
  }

  /// After a failed run, given its exit code: keeps the rejects on a data
  /// error (they explain it) or a closed output pipe, drops the report and
  /// everything else, and writes the stats document with the exit code. A
  /// closed output pipe (`.success`) fails a run that writes `--state-out` (74).
  /// A refused `--state-in` is a data error too, but the rejects do not
  /// explain it: they are dropped with the rest (Formats, "Nightly runs: the
  /// state file": nothing is written). Returns the exit code to use (74 when
  /// the rejects could not be written).
  func fail(_ code: ExitCode) -> ExitCode {
    var code = code
    if code == .success && state != nil {
      // The report's reader went away and the run stopped there: tonight's state is not complete,
      // and an exit 0 without it would leave the next night nothing to fold onto.
      ExitStatus.complainOfFailure(
        "the report's reader closed its end of the pipe before the report was complete; no --state-out is written")
      code = ExitCode(ExitStatus.ioError)
    }
    var result = code
    SignalGuard.deferringSignals {
      SignalGuard.onTermination(nil)
      // What it was writing is dropped with the file; only its thread must stop first.
      try? finishBackground()
      report.discard()
      state?.discard()
      directory?.discard()
      SignalGuard.onCleanup(nil)
      if let rejects {
        let explains = code.rawValue == ExitStatus.dataError && !(RunRecord.current?.refusedState ?? false)
        if explains || code == .success {
          do throws(OutputError) {
            try writeRejects()
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
      if code == .success {
        // The report's reader went away: the run stopped early, quietly, and its counts are not the input's.
        RunRecord.noteFailure("the report's reader closed its end of the pipe; the report is incomplete")
      }
      if let stats {
        Self.writeStats(to: stats, command: command, exitStatus: result.rawValue, rejectionsSoFar: rejectionsSoFar)
      }
      SignalGuard.settle(exitStatus: result.rawValue)
    }
    SignalGuard.protect(temporaryFiles: [])
    return result
  }

  /// Writes and commits the stats document of a run that did not succeed.
  private static func writeStats(
    to stats: OutputFile, command: String, exitStatus: Int32, rejectionsSoFar: [RejectReason: Int]
  ) {
    let elapsed = RunRecord.current.map { Date().timeIntervalSince($0.startedAt) } ?? 0
    let document = RunStatsDocument.render(
      command: command, stats: nil, elapsed: .nanoseconds(Int64(max(0, elapsed) * 1e9)), exitStatus: exitStatus,
      rejectionsSoFar: rejectionsSoFar)
    do throws(OutputError) {
      try stats.write(document)
      try stats.commit()
    } catch {
      stats.discard()
      ExitStatus.complain("cannot write the stats document: \(error.description)")
    }
  }

  /// Refuses, before anything is read or written, an output that is one of
  /// the inputs or another output (`OutputConflicts`, the library's rule,
  /// given this process's standard input and output), each output named by
  /// its option (a `nil` path is an output not asked for): replacing it would
  /// destroy the input, and two outputs in one file would mix or lose one of
  /// them. The conflict is a usage error, its paths escaped for the terminal.
  static func checkConflicts(outputs: [(String, String?)], inputs: [String], directory: String? = nil) throws {
    do throws(OutputConflict) {
      try OutputConflicts.check(
        outputs: outputs.map { (name: $0.0, path: $0.1) }, inputs: inputs,
        standardInput: SystemCalls.standardInput, standardOutput: SystemCalls.standardOutput,
        directory: directory.map { (name: "--output-dir", path: $0) })
    } catch {
      throw ValidationError(error.message(escaping: Printable.escaped))
    }
  }
}
