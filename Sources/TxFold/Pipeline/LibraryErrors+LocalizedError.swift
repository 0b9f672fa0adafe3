import Foundation

// The library's public errors as `LocalizedError`, so `localizedDescription`
// (what an app shows or logs) is the sentence-case message of `description`,
// which names options as the API spells them (`maxRejects`), never
// command-line flags. The messages are English: reasons and codes are for
// machines, and an app that translates switches on the cases.

extension InputError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension PipelineError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension PartialStateError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension SpillError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  package var errorDescription: String? { description }
}

extension SumOverflow: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension OutputError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  public var errorDescription: String? { description }
}

extension NothingAccepted: LocalizedError {
  /// The diagnosis's sentence, for apps that show `localizedDescription`.
  package var errorDescription: String? { description }
}

extension RejectRateExceeded: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  package var errorDescription: String? { description }
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
    case .output(let error): return (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
  }
}

extension ListRenderer.Failure: LocalizedError {
  /// The source's or the output's own error's message, or the overflow's.
  public var errorDescription: String? {
    switch self {
    case .source(let error): return (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    case .sumOverflow(let error): return error.description
    case .output(let error): return (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
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
    case .body(let error): return (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
  }
}

extension AccountOrderError: LocalizedError {
  /// The error's sentence, for apps that show `localizedDescription`.
  package var errorDescription: String? { description }
}
