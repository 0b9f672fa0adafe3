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
    complain(error.description)
    switch error {
    case .input(let input):
      return ExitCode(code(for: input))
    case .strictRejection, .tooManyRejects, .sumOverflow, .nothingAccepted:
      return ExitCode(dataError)
    case .rejectOutput:
      return ExitCode(ioError)
    }
  }

  /// 66 for an input that cannot be opened, 65 for one compressed in a
  /// format txfold does not read (the wrong file for the job, like records
  /// none of which is accepted), 74 for a read error or a damaged gzip stream.
  static func code(for error: InputError) -> Int32 {
    switch error {
    case .cannotOpen: return cannotOpenInput
    case .unsupportedCompression: return dataError
    case .readFailed, .gzipTruncated, .gzipCorrupt: return ioError
    }
  }

  /// The exit code for an output error: a closed pipe ends quietly with 0.
  static func fail(_ error: OutputError) -> ExitCode {
    if error.isBrokenPipe { return ExitCode.success }
    complain(error.description)
    return ExitCode(ioError)
  }
}
