/// An exact sum no longer fits in 128 bits. Sums never wrap around: the run
/// stops instead (exit 65 in the CLI).
public struct SumOverflow: Error, Sendable, Hashable, CustomStringConvertible {
  /// The currency whose sum overflowed.
  public var currency: String
  /// The summary key whose sum overflowed (`nil` for a list's sum, a group's total or a summary's
  /// total over every key).
  public var key: String?
  /// The state of the group whose total overflowed (`TransactionGrouping`), else `nil`.
  public var state: String?
  /// The day of the group whose total overflowed (`TransactionGrouping`), else `nil`.
  public var date: String?

  /// Creates the error for a sum in `currency` (of the summary key `key`, if any) that left 128 bits.
  public init(currency: String, key: String? = nil) {
    self.currency = currency
    self.key = key
  }

  /// Creates the error for the total in `currency` of the group of `state` and `date` that left 128 bits.
  public init(currency: String, state: String, date: String) {
    self.currency = currency
    self.state = state
    self.date = date
  }

  /// The input the sum overflowed in, as a run over inputs names it (`nil`:
  /// the sum was of values handed in, not read).
  package var source: OverflowSource?

  /// The sentence the CLI prints: which total overflowed, in which input, and
  /// that no report is written. Every command's overflow is worded here
  /// (`PipelineError.sumOverflow` too), so they all name the same things.
  public var description: String {
    let subject: String
    if let state, let date {
      subject = "The \(currency) total of the \(state) group of \(date)"
    } else if let key {
      subject = "The \(currency) total of '\(key)'"
    } else {
      subject = "The \(currency) sum"
    }
    guard let source else {
      // A group folded from values (`TransactionGrouping`) stops there; nothing else is said to be written.
      return subject + (state != nil ? " overflows 128 bits." : " overflows 128 bits; no report is written.")
    }
    return "\(subject) overflows 128 bits \(source.phrase); no report is written."
  }
}

/// Where a run's overflowing sum came from, for its message (`SumOverflow.source`).
package enum OverflowSource: Sendable, Hashable {
  /// Found while reading this input: the record that overflowed the sum is in it.
  case reading(String)
  /// Found once every input was read (a list's sum, a per-account summary),
  /// in a run of this one input.
  case input(String)
  /// Over all the inputs together: found when the workers' sums were added
  /// up, or after reading several inputs, so no one input is to blame.
  case allInputs

  /// The source of a sum found after reading `inputs`: the input when there is one.
  package init(after inputs: [String]) {
    self = inputs.count == 1 ? .input(inputs[0]) : .allInputs
  }

  var phrase: String {
    switch self {
    case .reading(let file): "while reading '\(file)'"
    case .input(let file): "in '\(file)'"
    case .allInputs: "over all the inputs together"
    }
  }
}

extension SumOverflow {
  /// This overflow, found in `source` (unless a source is named already).
  package func found(in source: OverflowSource) -> SumOverflow {
    var overflow = self
    if overflow.source == nil { overflow.source = source }
    return overflow
  }
}
