import Foundation

// The library's public errors as `LocalizedError`, so `localizedDescription`
// (what an app shows or logs) is the sentence-case message of `description`,
// which names options as the API spells them (`maxRejects`), never
// command-line flags. The messages are English: reasons and codes are for
// machines, and an app that translates switches on the cases.

/// An error whose message for apps is its `description`.
protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
  // `public` so it can be the witness of `LocalizedError`'s requirement for
  // the public errors; the protocol itself stays internal.

  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension InputError: DescribedError {}
extension PipelineError: DescribedError {}
extension PartialStateError: DescribedError {}
extension SpillError: DescribedError {}
extension SumOverflow: DescribedError {}
extension OutputError: DescribedError {}
extension NothingAccepted: DescribedError {}
extension RejectRateExceeded: DescribedError {}
extension AccountOrderError: DescribedError {}

/// The message of an error the library passes on (a source's, a flush's):
/// its `errorDescription` when it has one, else how it describes itself.
func errorMessage(of error: any Error) -> String {
  (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
}

extension ZoneError: LocalizedError {
  /// The error's sentence, begun with a capital as a message an app shows (`description` is the
  /// CLI's, which follows its own prefix).
  public var errorDescription: String? { description.prefix(1).uppercased() + description.dropFirst() }
}

extension AccountPartialWriteError: LocalizedError {
  /// The partial's error's message, or the output's own error's.
  package var errorDescription: String? {
    switch self {
    case .partial(let error): return error.description
    case .output(let error): return errorMessage(of: error)
    }
  }
}

extension ListRenderer.Failure: LocalizedError {
  /// The source's or the output's own error's message, or the overflow's.
  public var errorDescription: String? {
    switch self {
    case .source(let error): return errorMessage(of: error)
    case .sumOverflow(let error): return error.description
    case .output(let error): return errorMessage(of: error)
    }
  }
}

extension RecordRejection: LocalizedError {
  /// The rejection's message, for apps that show `localizedDescription`.
  public var errorDescription: String? { message }
}

extension TransactionReadError: LocalizedError {
  /// The reading error's message, or the caller's own error's.
  package var errorDescription: String? {
    switch self {
    case .input(let error): return error.description
    case .body(let error, _): return errorMessage(of: error)
    }
  }
}
