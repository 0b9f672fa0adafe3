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

  /// Prints `message` to standard error as `txfold: message`.
  static func complain(_ message: String) {
    StandardError.write("txfold: \(message)\n")
  }

  /// The exit code for a pipeline error, after printing its message.
  static func fail(_ error: PipelineError) -> ExitCode {
    complain(error.commandLineDescription)
    switch error {
    case .input(let input):
      if case .cannotOpen = input { return ExitCode(cannotOpenInput) }
      return ExitCode(ioError)
    case .strictRejection, .tooManyRejects, .sumOverflow:
      return ExitCode(dataError)
    case .rejectOutput:
      return ExitCode(ioError)
    }
  }

  /// The exit code for an output error: a closed pipe ends quietly with 0.
  static func fail(_ error: OutputError) -> ExitCode {
    if error.isBrokenPipe { return ExitCode.success }
    complain(error.description)
    return ExitCode(error.isCannotCreate ? cannotCreateOutput : ioError)
  }
}
