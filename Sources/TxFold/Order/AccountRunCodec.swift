/// The per-account fold's private run format: the same blocks as a
/// per-account partial (an account, its groups, their kept members), in
/// fixed-width little-endian binary instead of JSON lines.
///
/// Runs are written and read back by the same process, in a private
/// directory, and never leave it, so they need neither a version nor the
/// partial format's checks; reading them back must be cheap, because the
/// fold writes and reads every group once per spill. Reading still checks
/// every length against what is left, so a damaged run is an error, never a
/// crash.
///
/// Block: `u32` account length, the account's bytes, `u32` group count; per
/// group: `u32` its length in bytes (what follows), `u16` state length, state, `i32` day, `u8` indicator, `i64` count,
/// `u16` totals, per total (`u8` currency length, currency, `i64` count, decimal), the
/// latest timestamp, `u32` members, per member (timestamp, decimal, `u32`
/// text length, text, `i32` id length, `i32` currency length, `u8` has
/// description). A decimal is its `i128` significand (low word first) and
/// `u8` scale; a timestamp its twelve fields in declaration order.
enum AccountRunCodec {
  /// Appends one account's block: its groups in `table` (indices), in table
  /// order — the merge does not need them sorted — written from the table's
  /// own storage, with no value built per group or member.
  static func appendBlock<E: Error>(
    account: [UInt8], table: GroupTable, groups: ArraySlice<Int>, to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    append(UInt32(truncatingIfNeeded: account.count), to: &out)
    out.append(contentsOf: account)
    let states = table.states.strings
    let currencies = table.currencies.strings
    // The groups are read in place, through pointers (see `appendGroup`).
    try table.groups.withUnsafeBufferPointer { (all) throws(E) in
      guard let base = all.baseAddress else {
        append(UInt32(0), to: &out)
        return
      }
      var live = 0
      for index in groups where base[index].latest != nil { live += 1 }
      append(UInt32(truncatingIfNeeded: live), to: &out)
      for index in groups where base[index].latest != nil {
        appendGroup(base + index, states: states, currencies: currencies, to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
    }
  }

  /// One group of a block: its length first, so that a reader can have it
  /// whole in its buffer.
  private static func appendGroup(
    _ group: UnsafePointer<GroupAccumulator>, states: [[UInt8]], currencies: [[UInt8]], to out: inout [UInt8]
  ) {
    // Through the pointer each field is read in place; a copy of the group
    // would retain and release every one of its arrays.
    guard let latest = group.pointee.latest else { return }
    let lengthAt = out.count
    append(UInt32(0), to: &out)
    let state = states[group.pointee.state]
    append(UInt16(truncatingIfNeeded: state.count), to: &out)
    out.append(contentsOf: state)
    append(group.pointee.day.daysSinceEpoch, to: &out)
    out.append(group.pointee.indicator.rawValue)
    append(Int64(group.pointee.count), to: &out)
    append(UInt16(truncatingIfNeeded: group.pointee.totals.count), to: &out)
    for total in group.pointee.totals {
      let currency = currencies[total.currency]
      out.append(UInt8(truncatingIfNeeded: currency.count))
      out.append(contentsOf: currency)
      append(Int64(total.count), to: &out)
      append(total.sum, to: &out)
    }
    append(latest, to: &out)
    assert(!group.pointee.members.hasPendingText, "a member's text is still pending")
    append(UInt32(truncatingIfNeeded: group.pointee.members.entries.count), to: &out)
    group.pointee.members.text.withUnsafeBufferPointer { text in
      group.pointee.members.slots.withUnsafeBufferPointer { slots in
        for entry in group.pointee.members.entries {
          let slot = slots[Int(entry.slot)]
          append(slot.instant, to: &out)
          append(slot.amount, to: &out)
          append(UInt32(truncatingIfNeeded: slot.textLength), to: &out)
          out.append(
            contentsOf: UnsafeBufferPointer(rebasing: text[slot.textStart..<(slot.textStart + slot.textLength)]))
          append(Int32(truncatingIfNeeded: slot.idLength), to: &out)
          append(Int32(truncatingIfNeeded: slot.currencyLength), to: &out)
          out.append(slot.hasDescription ? 1 : 0)
        }
      }
    }
    let length = UInt32(truncatingIfNeeded: out.count - lengthAt - 4)
    withUnsafeBytes(of: length.littleEndian) { bytes in
      for (offset, byte) in bytes.enumerated() { out[lengthAt + offset] = byte }
    }
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  private static func append(_ value: ExactDecimal, to out: inout [UInt8]) {
    append(value.wide.low, to: &out)
    append(value.wide.high, to: &out)
    out.append(value.scale)
  }

  private static func append(_ stamp: Timestamp, to out: inout [UInt8]) {
    append(stamp.year, to: &out)
    out.append(contentsOf: [stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second, stamp.fractionDigits])
    out.append(stamp.style.rawValue)
    out.append(stamp.offsetNegative ? 1 : 0)
    append(stamp.nanosecond, to: &out)
    append(stamp.offsetMinutes, to: &out)
    append(stamp.epochSeconds, to: &out)
  }
}

/// Reads the blocks of one binary run (`AccountRunCodec`) front to back,
/// through a buffer of its own.
final class AccountRunReader: AccountBlockSource {
  private let source: any ByteSource
  let name: String
  /// Bytes read and not yet taken are `buffer[start..<end]`.
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var ended = false
  /// Blocks read so far (for messages: runs have no lines).
  private(set) var blockLine = 0

  /// A reader with a buffer of `bufferSize` bytes (less for a smaller run;
  /// a field longer than the buffer grows it).
  init(_ source: any ByteSource, bufferSize: Int = 1 << 20) {
    self.source = source
    name = source.name
    let size = Int64(Swift.max(1, bufferSize))
    buffer = Array(repeating: 0, count: Int(Swift.min(size, Swift.max(1, source.storedSize ?? size))))
  }

  /// The buffer of each of `runs` readers merged at once: together a quarter
  /// of `memoryLimit`, from 64 KiB to 1 MiB each (the merge reads every run
  /// at the same time, so their buffers add up).
  static func bufferSize(runs: Int, memoryLimit: Int) -> Int {
    Swift.min(1 << 20, Swift.max(64 << 10, memoryLimit / 4 / Swift.max(1, runs)))
  }

  func nextAccount() throws(PartialStateError) -> (account: [UInt8], groups: Int)? {
    guard try fill(1) else { return nil }
    blockLine += 1
    let account = try bytes(Int(try integer(UInt32.self)))
    return (account, Int(try integer(UInt32.self)))
  }

  /// Reads the next group of the current block straight into `table` (its
  /// state and currencies interned, its members offered from the buffer).
  func mergeNextGroup(into table: GroupTable) throws(PartialStateError) {
    let length = Int(try integer(UInt32.self))
    guard try fill(length) else { throw damaged("it ends inside a group") }
    let begin = start
    start += length
    var failure: PartialStateError?
    buffer.withUnsafeBufferPointer { all in
      var group = GroupBytes(bytes: UnsafeBufferPointer(rebasing: all[begin..<(begin + length)]))
      do throws(PartialStateError) {
        try merge(&group, into: table)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  private func merge(_ group: inout GroupBytes, into table: GroupTable) throws(PartialStateError) {
    let state = table.states.intern(try group.bytes(Int(try group.integer(UInt16.self)), damaged))
    let day = CalendarDay(daysSinceEpoch: try group.integer(Int32.self))
    guard let indicator = CreditDebitIndicator(rawValue: try group.integer(UInt8.self)) else {
      throw damaged("an unknown indicator")
    }
    let target = table.groupIndex(state: state, day: day, indicator: indicator)
    let (count, countOverflow) = table.groups[target].count.addingReportingOverflow(Int(try group.integer(Int64.self)))
    // Names for messages only: made when one is thrown, not for every group.
    func stateName() -> String { String(decoding: table.states.strings[state], as: UTF8.self) }
    guard !countOverflow else { throw .overflow(what: "The count of the \(stateName()) group of \(day)") }
    table.groups[target].count = count
    let totals = Int(try group.integer(UInt16.self))
    for _ in 0..<totals {
      let currencyBytes = try group.bytes(Int(try group.integer(UInt8.self)), damaged)
      let currency = table.currencies.intern(currencyBytes)
      let currencyCount = Int(try group.integer(Int64.self))
      guard currencyCount >= 1 else { throw damaged("a total's count below 1") }
      guard table.groups[target].addTotal(try group.decimal(damaged), currency: currency, count: currencyCount) else {
        let code = String(decoding: currencyBytes, as: UTF8.self)
        throw .overflow(what: "The \(code) total of the \(stateName()) group of \(day)")
      }
    }
    let latest = try group.timestamp(damaged)
    if let current = table.groups[target].latest {
      if latest.compareTotal(current) > 0 { table.groups[target].latest = latest }
    } else {
      table.groups[target].latest = latest
    }
    let members = Int(try group.integer(UInt32.self))
    for _ in 0..<members {
      let instant = try group.timestamp(damaged)
      let amount = try group.decimal(damaged)
      let text = try group.bytes(Int(try group.integer(UInt32.self)), damaged)
      let idLength = Int(try group.integer(Int32.self))
      let currencyLength = Int(try group.integer(Int32.self))
      let hasDescription = try group.integer(UInt8.self) != 0
      guard idLength >= 0, currencyLength >= 0, idLength + currencyLength <= text.count else {
        throw damaged("a member's lengths do not fit its text")
      }
      table.groups[target].members.offer(
        instant: instant, amount: amount, text: text, idLength: idLength, currencyLength: currencyLength,
        hasDescription: hasDescription)
    }
  }

  private func damaged(_ what: String) -> PartialStateError {
    .malformed(file: name, line: blockLine, detail: "a damaged spill run: \(what)")
  }

  /// Makes `count` bytes available from `start`; false when the run ends first.
  private func fill(_ count: Int) throws(PartialStateError) -> Bool {
    while end - start < count {
      if ended { return false }
      // Move what is left to the front, and grow only for a field longer than the buffer.
      if start > 0 {
        let left = end - start
        buffer.withUnsafeMutableBytes { raw in
          raw.baseAddress.unsafelyUnwrapped.copyMemory(from: raw.baseAddress.unsafelyUnwrapped + start, byteCount: left)
        }
        start = 0
        end = left
      }
      if buffer.count < count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
      var result: Result<Int, InputError> = .success(0)
      let filled = end
      buffer.withUnsafeMutableBytes { raw in
        let target = UnsafeMutableRawBufferPointer(rebasing: raw[filled...])
        do throws(InputError) {
          result = .success(try source.read(into: target))
        } catch {
          result = .failure(error)
        }
      }
      switch result {
      case .success(let read):
        if read == 0 { ended = true }
        end += read
      case .failure(let error):
        throw .input(error)
      }
    }
    return true
  }

  private func bytes(_ count: Int) throws(PartialStateError) -> [UInt8] {
    guard try fill(count) else { throw damaged("it ends inside a block") }
    defer { start += count }
    return Array(buffer[start..<(start + count)])
  }

  private func integer<T: FixedWidthInteger>(_: T.Type) throws(PartialStateError) -> T {
    let size = MemoryLayout<T>.size
    guard try fill(size) else { throw damaged("it ends inside a block") }
    let value = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: T.self) }
    start += size
    return T(littleEndian: value)
  }
}

/// One group's bytes in a run, read front to back; every read checks what is left.
struct GroupBytes {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(PartialStateError) -> T {
    let size = MemoryLayout<T>.size
    guard bytes.count - offset >= size, let base = bytes.baseAddress else {
      throw .malformed(file: "spill run", line: 0, detail: "a damaged spill run: a group ends early")
    }
    let value = UnsafeRawPointer(base + offset).loadUnaligned(as: T.self)
    offset += size
    return T(littleEndian: value)
  }

  mutating func bytes(
    _ count: Int, _ damaged: (String) -> PartialStateError
  ) throws(PartialStateError) -> UnsafeBufferPointer<UInt8> {
    guard count >= 0, bytes.count - offset >= count else { throw damaged("a group ends early") }
    defer { offset += count }
    return UnsafeBufferPointer(rebasing: bytes[offset..<(offset + count)])
  }

  mutating func decimal(_ damaged: (String) -> PartialStateError) throws(PartialStateError) -> ExactDecimal {
    let low = try integer(UInt64.self)
    let high = try integer(Int64.self)
    let scale = try integer(UInt8.self)
    return ExactDecimal(wide: WideInt(high: high, low: low), scale: scale)
  }

  mutating func timestamp(_ damaged: (String) -> PartialStateError) throws(PartialStateError) -> Timestamp {
    let year = try integer(Int16.self)
    let month = try integer(UInt8.self)
    let day = try integer(UInt8.self)
    let hour = try integer(UInt8.self)
    let minute = try integer(UInt8.self)
    let second = try integer(UInt8.self)
    let fractionDigits = try integer(UInt8.self)
    guard let style = Timestamp.OffsetStyle(rawValue: try integer(UInt8.self)) else {
      throw damaged("an unknown timestamp style")
    }
    let offsetNegative = try integer(UInt8.self) != 0
    let nanosecond = try integer(UInt32.self)
    let offsetMinutes = try integer(Int16.self)
    let epochSeconds = try integer(Int64.self)
    return Timestamp(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second, fractionDigits: fractionDigits,
      style: style, offsetNegative: offsetNegative, nanosecond: nanosecond, offsetMinutes: offsetMinutes,
      epochSeconds: epochSeconds)
  }
}
