/// Whether money came in (`CRDT`) or went out (`DBIT`).
public enum CreditDebitIndicator: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Credit: money in. Sorts before `debit` within a day.
  case credit = 0
  /// Debit: money out.
  case debit = 1

  /// `CRDT` or `DBIT`.
  public var code: String { self == .credit ? "CRDT" : "DBIT" }
  /// The indicator's code, so it prints as the inputs and reports write it.
  public var description: String { code }

  /// Parses `CRDT` or `DBIT` (exactly, upper case).
  public init?(code: String) {
    switch code {
    case "CRDT": self = .credit
    case "DBIT": self = .debit
    default: return nil
    }
  }
}

/// One canonical transaction (Documentation/Guide.md, "Schemas"), whatever schema it was read from.
///
/// This is the type library callers build and receive; the streaming pipeline
/// never materialises it per record (it folds straight from the input bytes)
/// but produces exactly the same groups as folding these values.
public struct Transaction: Sendable, Hashable {
  /// The record's id as written (`4734` and `"4734"` are the same id).
  public var id: String
  /// When it happened.
  public var instant: Timestamp
  /// The signed amount: negative for money out. For the Backbase schema, the
  /// written magnitude with the sign of the indicator.
  public var amount: ExactDecimal
  /// The currency code, upper-cased (`EUR`, `PBP`).
  public var currency: String
  /// Whether money came in or went out; the sign of `amount` agrees with it (`init` makes it so).
  public var creditDebitIndicator: CreditDebitIndicator
  /// Upper-cased state; `PENDING` and `COMPLETED` are the known ones.
  public var state: String
  /// Free text describing the transaction, when the input has it.
  public var description: String?
  /// The input's category, when it has one (integers kept as their text).
  public var category: String?
  /// The other party (merchant, payer or payee), when the input names one.
  public var counterparty: String?
  /// A signed fee; `amount + fee` is the total including fees.
  public var fee: ExactDecimal?
  /// The account the transaction belongs to, read only by per-account runs
  /// (`ReadOptions.accounts`); `nil` otherwise. The external sort orders by
  /// it first (`SortEntry.precedes`), so a per-account list comes account by account.
  public var account: String?
  /// The day the transaction is shown on: the day a list dated it on (the list formats' `date`:
  /// its instant's day in the list's zone, `--timezone`), else the instant's written day.
  ///
  /// A list run in a zone (`ListCursor`, `ListReport`) and a decoded list carry the day it was
  /// listed on, so a list written again, or shown by an app, has the days the CLI wrote; a
  /// report of transactions that carry none takes their days in its own zone. Set it after
  /// `instant`: only a day other than the written one is kept, so a transaction equals itself
  /// encoded and decoded.
  public var date: CalendarDay {
    get { listedDay ?? instant.writtenDay }
    set { listedDay = newValue == instant.writtenDay ? nil : newValue }
  }
  /// The day a list dated the transaction on, when that is not its written day (`date`).
  private(set) var listedDay: CalendarDay?

  /// Creates a transaction (an app's own data, or a test's), normalised as
  /// the decoder normalises a record:
  ///
  /// - **The indicator decides the direction.** `amount` is stored with the
  ///   indicator's sign: its magnitude for `.credit`, its negated magnitude
  ///   for `.debit` (scale kept). So `-5.00` with `.credit` is a credit of
  ///   `5.00`, and `5.00` with `.debit` is `-5.00` — as a Backbase record's
  ///   amount is a magnitude whose direction is its indicator. To derive the
  ///   indicator from a signed amount instead, pass
  ///   `amount.isNegative ? .debit : .credit`.
  /// - **Codes are upper-cased** (ASCII): `currency` `"eur"` is `"EUR"` and
  ///   `state` `"pending"` is `"PENDING"`, as the decoder writes them, so
  ///   totals, filters and sections never split one currency or state in two.
  /// - **Nothing is refused**: an empty id, currency or state, which the decoder
  ///   rejects (`invalid-field`), is kept as given. Decode text you do not
  ///   control with `RecordDecoder`, which refuses it with the rejects file's
  ///   reason and field.
  public init(
    id: String, instant: Timestamp, amount: ExactDecimal, currency: String,
    creditDebitIndicator: CreditDebitIndicator, state: String, description: String? = nil,
    category: String? = nil, counterparty: String? = nil, fee: ExactDecimal? = nil, account: String? = nil
  ) {
    self.id = id
    self.instant = instant
    // The one significand whose negation does not fit 128 bits (-2^127) keeps its sign rather than trap.
    let agrees = amount.isNegative == (creditDebitIndicator == .debit) || amount.isZero
    self.amount = agrees || amount.wide == .min ? amount : amount.negated
    self.currency = Self.asciiUppercased(currency)
    self.creditDebitIndicator = creditDebitIndicator
    self.state = Self.asciiUppercased(state)
    self.description = description
    self.category = category
    self.counterparty = counterparty
    self.fee = fee
    self.account = account
  }

  /// `text` with ASCII letters upper-cased; `text` itself (no copy) when it has none lower-case.
  static func asciiUppercased(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return text }
    return String(
      decoding: text.utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }, as: UTF8.self)
  }
}

/// The states that have a fixed place in the section order.
enum KnownState {
  /// The state whose section comes first in every report.
  public static let pending = "PENDING"
  /// The state whose section comes right after `PENDING`.
  public static let completed = "COMPLETED"
}
