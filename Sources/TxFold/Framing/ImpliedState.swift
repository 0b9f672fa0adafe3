/// The state an input's structure gives its records, for schemas without a
/// state field: PSD2 account reports list `booked` and `pending` records in
/// separate arrays.
@usableFromInline package enum ImpliedState: UInt8, Sendable, Hashable {
  /// Nothing implied: the schema's default state applies.
  case none
  /// A record of a `booked` array: `COMPLETED`.
  case completed
  /// A record of a `pending` array: `PENDING`.
  case pending

  /// The state's name, or `nil` for `.none`.
  public var state: String? {
    switch self {
    case .none: return nil
    case .completed: return KnownState.completed
    case .pending: return KnownState.pending
    }
  }

  /// The state implied by an array's key (`booked`, `pending`).
  static func forArray(key: [UInt8]) -> ImpliedState {
    if key.elementsEqual("booked".utf8) { return .completed }
    if key.elementsEqual("pending".utf8) { return .pending }
    return .none
  }
}
