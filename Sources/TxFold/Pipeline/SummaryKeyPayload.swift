/// A record's key in a per-account summary's dimension as an entry's payload
/// (`ListEntryLayout`): what `SummaryAccumulator` makes of the record's
/// transaction, written by the workers (`ListChunkFolder`) and read back by
/// the summing thread (`AccountKeySums`), with the record's day, which the
/// account's page names as its period (the first and last day of the
/// account's transactions) whatever the dimension.
///
/// ```
/// 0    Int32   the record's day (`CalendarDay.daysSinceEpoch`) in the summary's zone
/// 4    UInt8   0 no key, 1 text, 2 day, 3 month, 4 week, 5 year
/// 5…   text    the key's bytes (text), or an Int32 code (`SummaryAccumulator.slot`)
/// ```
enum SummaryKeyPayload {
  /// Where the key starts, after the day.
  private static let keyOffset = 4

  private static let missing: UInt8 = 0
  private static let text: UInt8 = 1
  private static let day: UInt8 = 2
  private static let month: UInt8 = 3
  private static let week: UInt8 = 4
  private static let year: UInt8 = 5

  /// The code of a date slot (0 for the others).
  @inline(__always)
  static func code(of slot: SummaryAccumulator.Slot) -> Int32 {
    switch slot {
    case .day(let value), .month(let value), .week(let value), .year(let value): value
    case .missing, .text: 0
    }
  }

  /// Appends the record's `day`, then its key: in a text dimension `text` (a
  /// category or counterparty that is absent or empty has none; a state
  /// always has one), in a date dimension the slot's `code`.
  @inline(__always)
  static func append(
    day recordDay: CalendarDay, dimension: SummaryDimension, text: UnsafeBufferPointer<UInt8>?, code: Int32,
    to bytes: inout [UInt8]
  ) {
    withUnsafeBytes(of: recordDay.daysSinceEpoch.littleEndian) { bytes.append(contentsOf: $0) }
    switch dimension {
    case .category, .counterparty:
      guard let text, !text.isEmpty else { return bytes.append(missing) }
      bytes.append(Self.text)
      bytes.append(contentsOf: text)
    case .state:
      bytes.append(Self.text)
      if let text { bytes.append(contentsOf: text) }
    case .day, .month, .week, .year:
      let tag: UInt8 =
        switch dimension {
        case .day: day
        case .month: month
        case .week: week
        default: year
        }
      bytes.append(tag)
      withUnsafeBytes(of: code.littleEndian) { bytes.append(contentsOf: $0) }
    }
  }

  /// The record's day a payload carries.
  @inline(__always)
  static func recordDay(_ payload: UnsafeRawBufferPointer) -> CalendarDay {
    guard payload.count >= keyOffset else { return CalendarDay(daysSinceEpoch: 0) }
    return CalendarDay(daysSinceEpoch: Int32(littleEndian: payload.loadUnaligned(as: Int32.self)))
  }

  /// The payload's key: what follows the day (a tag, then text or a code).
  @inline(__always)
  static func key(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: payload.dropFirst(keyOffset))
  }

  /// Whether a key's first byte (`key(_:)`) says it holds text.
  @inline(__always)
  static func isText(_ tag: UInt8) -> Bool { tag == text }

  /// The date slot's code a key (`key(_:)`) holds (0 when it holds none).
  @inline(__always)
  static func code(_ key: UnsafeRawBufferPointer) -> Int32 {
    guard key.count >= 5 else { return 0 }
    return Int32(littleEndian: key.loadUnaligned(fromByteOffset: 1, as: Int32.self))
  }

  /// The slot a key (`key(_:)`) stands for.
  static func slot(key: UnsafeRawBufferPointer) -> SummaryAccumulator.Slot {
    guard let tag = key.first, tag != missing else { return .missing }
    if tag == text { return .text(Array(key.dropFirst())) }
    let code = code(key)
    switch tag {
    case day: return .day(code)
    case month: return .month(code)
    case week: return .week(code)
    default: return .year(code)
    }
  }
}
