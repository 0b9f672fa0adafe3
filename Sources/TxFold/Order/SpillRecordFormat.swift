/// The binary format of `ExternalSorter`'s spill files, version 3: compact,
/// and exact — a transaction read back is `==` to the one written.
///
/// A file is an 8-byte header, `TXFS`, the version byte (`0x03`) and three zero
/// bytes, followed by records. Each record is a LEB128 length, then a body of
/// exactly that many bytes:
///
/// | field | encoding |
/// |---|---|
/// | position | LEB128: the record's position in the input (the last tie-break) |
/// | instant | 24 bytes: year (Int16 LE), month, day, hour, minute, second, fraction digits, offset style, offset negative (0/1) (one byte each), nanosecond (UInt32 LE), offset minutes (Int16 LE), epoch seconds (Int64 LE) — the written components, so it prints as written, and the instant as resolved |
/// | indicator | 1 byte: 0 `CRDT`, 1 `DBIT` |
/// | flags | 1 byte: bit 0 description, 1 category, 2 counterparty, 3 fee, 4 account, 5 listed day present |
/// | id, currency, state | strings: LEB128 byte count, then UTF-8 |
/// | amount | a decimal: the scale (1 byte), then the significand as decimal text (`-191995`) in a string |
/// | description, category, counterparty, fee, account | each only when its flag is set |
/// | listed day | only when its flag is set: the day a list dated the transaction on (`Transaction.date`, when not its written day), days since 1970-01-01 (Int32 LE) |
///
/// Decimals travel as text, never as binary floating point; the significand
/// text covers the whole 128-bit range. A reader checks every length, value
/// and the UTF-8 of every string, so a damaged file is reported, never
/// misread. A change to the layout must bump the version byte.
///
/// A per-account list's runs also hold count entries (`SortEntry.count`,
/// `AccountCountingRun`), in the same layout: the count in the position's
/// place, the latest instant there is (`Int64.max` epoch seconds, which no
/// record has), empty id, currency and state, the account, and the first and
/// last day of its transactions in the amount and the fee (zero and none
/// when the sort keeps no days).
enum SpillRecordFormat {
  /// The file header: magic and version.
  static let header: [UInt8] = Array("TXFS".utf8) + [version, 0, 0, 0]
  /// The format version this build writes and reads.
  static let version: UInt8 = 3

  static let hasDescription: UInt8 = 1 << 0
  static let hasCategory: UInt8 = 1 << 1
  static let hasCounterparty: UInt8 = 1 << 2
  static let hasFee: UInt8 = 1 << 3
  static let hasAccount: UInt8 = 1 << 4
  static let hasListedDay: UInt8 = 1 << 5
  static let knownFlags = hasDescription | hasCategory | hasCounterparty | hasFee | hasAccount | hasListedDay

  /// Why a record could not be read back.
  enum DecodeError: Error, Sendable, Equatable {
    /// The bytes end inside a record.
    case truncated
    /// A value is out of range or not UTF-8.
    case invalid(String)
  }

  /// Appends one record for `transaction` at input `position`.
  static func append(_ transaction: Transaction, position: Int, to out: inout [UInt8]) {
    var body: [UInt8] = []
    body.reserveCapacity(96)
    appendVarint(UInt64(position), to: &body)
    appendTimestamp(transaction.instant, to: &body)
    body.append(transaction.creditDebitIndicator.rawValue)
    var flags: UInt8 = 0
    if transaction.description != nil { flags |= hasDescription }
    if transaction.category != nil { flags |= hasCategory }
    if transaction.counterparty != nil { flags |= hasCounterparty }
    if transaction.fee != nil { flags |= hasFee }
    if transaction.account != nil { flags |= hasAccount }
    if transaction.listedDay != nil { flags |= hasListedDay }
    body.append(flags)
    appendString(transaction.id, to: &body)
    appendString(transaction.currency, to: &body)
    appendString(transaction.state, to: &body)
    appendDecimal(transaction.amount, to: &body)
    if let description = transaction.description { appendString(description, to: &body) }
    if let category = transaction.category { appendString(category, to: &body) }
    if let counterparty = transaction.counterparty { appendString(counterparty, to: &body) }
    if let fee = transaction.fee { appendDecimal(fee, to: &body) }
    if let account = transaction.account { appendString(account, to: &body) }
    if let day = transaction.listedDay { appendLittleEndian(day.daysSinceEpoch, to: &body) }
    appendVarint(UInt64(body.count), to: &out)
    out.append(contentsOf: body)
  }

  /// Reads the record starting at `offset` in `bytes`.
  ///
  /// - Returns: the transaction, its position and the offset after it, or
  ///   `nil` when `bytes` ends before the record does (read more and retry).
  /// - Throws: `DecodeError.invalid` for a damaged record.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(DecodeError) -> (
    transaction: Transaction, position: Int, next: Int
  )? {
    var cursor = Cursor(bytes: bytes, offset: offset, end: bytes.count)
    let length: UInt64
    do throws(DecodeError) {
      length = try cursor.varint()
    } catch .truncated {
      return nil
    }
    guard length <= UInt64(bytes.count - cursor.offset) else {
      guard length < 1 << 40 else { throw .invalid("record length \(length)") }
      return nil
    }
    var body = Cursor(bytes: bytes, offset: cursor.offset, end: cursor.offset + Int(length))
    do throws(DecodeError) {
      let position = try body.varint()
      guard position <= UInt64(Int.max) else { throw .invalid("position \(position)") }
      let instant = try body.timestamp()
      guard let indicator = CreditDebitIndicator(rawValue: try body.byte()) else { throw .invalid("indicator") }
      let flags = try body.byte()
      guard flags & ~knownFlags == 0 else { throw .invalid("flags") }
      let id = try body.string()
      let currency = try body.string()
      let state = try body.string()
      let amount = try body.decimal()
      let description = flags & hasDescription != 0 ? try body.string() : nil
      let category = flags & hasCategory != 0 ? try body.string() : nil
      let counterparty = flags & hasCounterparty != 0 ? try body.string() : nil
      let fee = flags & hasFee != 0 ? try body.decimal() : nil
      let account = flags & hasAccount != 0 ? try body.string() : nil
      let listedDay = flags & hasListedDay != 0 ? try body.day() : nil
      guard body.offset == body.end else { throw .invalid("bytes after the record's fields") }
      var transaction = Transaction(
        id: id, instant: instant, amount: amount, currency: currency, creditDebitIndicator: indicator, state: state,
        description: description, category: category, counterparty: counterparty, fee: fee, account: account)
      if let listedDay { transaction.date = listedDay }
      return (transaction, Int(position), body.end)
    } catch .truncated {
      throw .invalid("a field runs past the record's end")
    }
  }

  /// Checks the header at the start of a run.
  static func readHeader(from reader: SpillReader) throws(SpillError) {
    guard try reader.request(header.count), header.elementsEqual(reader.bytes.prefix(header.count)) else {
      throw .corrupt(path: reader.file.name, detail: "not a version \(version) sort file")
    }
    reader.consume(header.count)
  }

  /// The next record of a run whose header was read, or `nil` after the last.
  static func next(from reader: SpillReader) throws(SpillError) -> SortEntry? {
    if reader.available == 0, try !reader.request(1) { return nil }
    while true {
      let decoded: (transaction: Transaction, position: Int, next: Int)?
      do throws(DecodeError) {
        decoded = try read(reader.bytes, at: 0)
      } catch {
        throw .corrupt(path: reader.file.name, detail: "\(error)")
      }
      if let decoded {
        reader.consume(decoded.next)
        return SortEntry(transaction: decoded.transaction, position: decoded.position)
      }
      // The record goes on past what was read: read more (a long record grows the reader's buffer).
      guard try reader.request(reader.available + 1) else {
        throw .corrupt(path: reader.file.name, detail: "the file ends inside a record")
      }
    }
  }

  // MARK: Writing

  static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    out.append(UInt8(rest))
  }

  static func appendString(_ string: String, to out: inout [UInt8]) {
    appendVarint(UInt64(string.utf8.count), to: &out)
    out.append(contentsOf: string.utf8)
  }

  static func appendDecimal(_ value: ExactDecimal, to out: inout [UInt8]) {
    out.append(value.scale)
    appendString(value.wide.description, to: &out)
  }

  static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  static func appendTimestamp(_ stamp: Timestamp, to out: inout [UInt8]) {
    appendLittleEndian(stamp.year, to: &out)
    out.append(contentsOf: [stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second, stamp.fractionDigits])
    out.append(stamp.style.rawValue)
    out.append(stamp.offsetNegative ? 1 : 0)
    appendLittleEndian(stamp.nanosecond, to: &out)
    appendLittleEndian(stamp.offsetMinutes, to: &out)
    appendLittleEndian(stamp.epochSeconds, to: &out)
  }

  // MARK: Reading

  /// Checked reads inside `offset..<end`.
  struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int
    let end: Int

    mutating func byte() throws(DecodeError) -> UInt8 {
      guard offset < end else { throw .truncated }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func varint() throws(DecodeError) -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let byte = try byte()
        guard shift < 64, shift < 63 || byte <= 1 else { throw .invalid("varint too long") }
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }

    mutating func littleEndian<T: FixedWidthInteger>(_: T.Type) throws(DecodeError) -> T {
      guard end - offset >= MemoryLayout<T>.size else { throw .truncated }
      var value = T.zero
      for index in 0..<MemoryLayout<T>.size {
        value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
      }
      offset += MemoryLayout<T>.size
      return value
    }

    mutating func raw() throws(DecodeError) -> UnsafeBufferPointer<UInt8> {
      let length = try varint()
      guard length <= UInt64(end - offset) else { throw .truncated }
      defer { offset += Int(length) }
      return UnsafeBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
    }

    mutating func string() throws(DecodeError) -> String {
      let raw = try raw()
      guard let string = UTF8Validation.string(raw) else { throw .invalid("a string is not UTF-8") }
      return string
    }

    mutating func decimal() throws(DecodeError) -> ExactDecimal {
      let scale = try byte()
      let text = try raw()
      guard let significand = SpillRecordFormat.parseWideInt(text) else { throw .invalid("a decimal") }
      return ExactDecimal(wide: significand, scale: scale)
    }

    mutating func day() throws(DecodeError) -> CalendarDay {
      let day = CalendarDay(daysSinceEpoch: try littleEndian(Int32.self))
      guard day.isInSupportedRange else { throw .invalid("a day") }
      return day
    }

    mutating func timestamp() throws(DecodeError) -> Timestamp {
      let year = try littleEndian(Int16.self)
      let month = try byte()
      let day = try byte()
      let hour = try byte()
      let minute = try byte()
      let second = try byte()
      let fractionDigits = try byte()
      guard let style = Timestamp.OffsetStyle(rawValue: try byte()) else { throw .invalid("offset style") }
      let negative = try byte()
      guard negative <= 1 else { throw .invalid("offset sign") }
      let nanosecond = try littleEndian(UInt32.self)
      let offsetMinutes = try littleEndian(Int16.self)
      let epochSeconds = try littleEndian(Int64.self)
      guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60,
        fractionDigits <= 9, nanosecond < 1_000_000_000
      else { throw .invalid("timestamp") }
      return Timestamp(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second, fractionDigits: fractionDigits,
        style: style, offsetNegative: negative == 1, nanosecond: nanosecond, offsetMinutes: offsetMinutes,
        epochSeconds: epochSeconds)
    }
  }

  /// Parses `-?[0-9]+` into a 128-bit integer, or `nil` (also on overflow).
  static func parseWideInt(_ text: UnsafeBufferPointer<UInt8>) -> WideInt? {
    var index = 0
    let negative = text.first == .minus
    if negative { index = 1 }
    guard index < text.count else { return nil }
    var value: WideInt = 0
    while index < text.count {
      let byte = text[index]
      guard byte >= .zero && byte <= .nine else { return nil }
      let digit = WideInt(UInt64(byte - .zero))
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      // Accumulate towards the sign so the smallest value parses too.
      let (next, overflow2) =
        negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflow, !overflow2 else { return nil }
      value = next
      index += 1
    }
    return value
  }
}
