import ArgumentParser
import Foundation
import TxFold

/// The exit codes of SPEC §2.3 (sysexits.h values), and how library errors map to them.
enum ExitStatus {
  static let dataError: Int32 = 65
  static let cannotOpenInput: Int32 = 66
  static let ioError: Int32 = 74
  static let interrupted: Int32 = 130

  /// Prints `message` to standard error as `txfold: message`.
  static func complain(_ message: String) {
    FileHandle.standardError.write(Data("txfold: \(message)\n".utf8))
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
    return ExitCode(ioError)
  }
}
