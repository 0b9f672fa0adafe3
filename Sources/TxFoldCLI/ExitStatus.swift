import ArgumentParser
import TxFold

/// The exit codes (sysexits.h values; the README lists them), and how library errors map to them.
enum ExitStatus {
  static let dataError: Int32 = 65
  static let cannotOpenInput: Int32 = 66
  /// An output cannot be created (a missing directory, no permission), found before any reading.
  static let cannotCreateOutput: Int32 = 73
  static let ioError: Int32 = 74
  static let interrupted: Int32 = 130

  /// Prints `message` to standard error as `txfold: message` — unless SIGINT or
  /// SIGTERM is being handled, when the failure is the cleanup's doing and the
  /// process is about to end with 130 or 143 (`SignalGuard.unlessTerminating`).
  static func complain(_ message: String) {
    SignalGuard.unlessTerminating()
    StandardError.write("txfold: \(Printable.message(CommandLineWording.reword(message)))\n")
  }

  /// Prints why the run fails, and notes it for the `--stats` document.
  static func complainOfFailure(_ message: String) {
    SignalGuard.unlessTerminating()
    RunRecord.noteFailure(Printable.message(CommandLineWording.reword(message)))
    complain(message)
  }

  /// The exit code for a pipeline error (`group`, `list` or `summary`), after printing its message:
  /// reading errors by their input, temporary storage 74, an overflowing total 65.
  static func fail(_ error: PipelineError) -> ExitCode {
    complainOfFailure(error.commandLineDescription)
    switch error {
    case .input(let input):
      return ExitCode(code(for: input))
    case .strictRejection, .tooManyRejects, .sumOverflow, .totalOverflow, .nothingAccepted, .tooManyRejected,
      .tooFewAccepted:
      return ExitCode(dataError)
    case .rejectOutput, .spill:
      return ExitCode(ioError)
    case .state:
      RunRecord.noteRefusedState()
      return ExitCode(dataError)
    case .accountMerge, .accountsOutOfOrder:
      return ExitCode(dataError)
    case .invalidOptions:
      return ExitCode(ExitCode.validationFailure.rawValue)
    }
  }

  /// 66 for an input that cannot be opened, 65 for one compressed in a
  /// format txfold does not read or a state or partial file of its own (the wrong file for the job, like records
  /// none of which is accepted), 74 for a read error, a damaged gzip or zstd stream or an input cut off inside a record.
  static func code(for error: InputError) -> Int32 {
    switch error {
    case .cannotOpen: return cannotOpenInput
    case .unsupportedCompression, .notTransactions: return dataError
    case .readFailed, .gzipTruncated, .gzipCorrupt, .zstdTruncated, .zstdCorrupt, .truncatedInput: return ioError
    }
  }

  /// The exit code for an output error: a closed pipe ends quietly with 0.
  static func fail(_ error: OutputError) -> ExitCode {
    if error.isBrokenPipe { return ExitCode.success }
    complainOfFailure(error.description)
    return ExitCode(error.isCannotCreate ? cannotCreateOutput : ioError)
  }
}
