/// Whether money came in (`CRDT`) or went out (`DBIT`).
public enum CreditDebitIndicator: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Credit: money in. Sorts before `debit` within a day.
  case credit = 0
  /// Debit: money out.
  case debit = 1

  /// `CRDT` or `DBIT`.
  public var code: String { self == .credit ? "CRDT" : "DBIT" }
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
  /// The currency code as written (`EUR`, `PBP`).
  public var currency: String
  public var creditDebitIndicator: CreditDebitIndicator
  /// Upper-cased state; `PENDING` and `COMPLETED` are the known ones.
  public var state: String
  public var description: String?
  public var category: String?
  public var counterparty: String?
  /// A signed fee; `amount + fee` is the total including fees.
  public var fee: ExactDecimal?

  public init(
    id: String, instant: Timestamp, amount: ExactDecimal, currency: String,
    creditDebitIndicator: CreditDebitIndicator, state: String, description: String? = nil,
    category: String? = nil, counterparty: String? = nil, fee: ExactDecimal? = nil
  ) {
    self.id = id
    self.instant = instant
    self.amount = amount
    self.currency = currency
    self.creditDebitIndicator = creditDebitIndicator
    self.state = state
    self.description = description
    self.category = category
    self.counterparty = counterparty
    self.fee = fee
  }
}

/// The states that have a fixed place in the section order.
public enum KnownState {
  public static let pending = "PENDING"
  public static let completed = "COMPLETED"
}
