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
/// group: `u32` its length in bytes (what follows), `u32` state length, state, `i32` day, `u8` indicator, `i64` count,
/// `u32` totals, per total (`u32` currency length, currency, `i64` count, decimal), the
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
    scratch: inout RawScratch, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    appendInteger(UInt32(truncatingIfNeeded: account.count), to: &out)
    out.append(contentsOf: account)
    let states = table.states.strings
    let currencies = table.currencies.strings
    // The groups are read in place, through pointers (see `appendGroup`).
    try table.groups.withUnsafeBufferPointer { (all) throws(E) in
      guard let base = all.baseAddress else {
        appendInteger(UInt32(0), to: &out)
        return
      }
      var live = 0
      for index in groups where base[index].latest != nil { live += 1 }
      appendInteger(UInt32(truncatingIfNeeded: live), to: &out)
      for index in groups where base[index].latest != nil {
        appendGroup(base + index, states: states, currencies: currencies, scratch: &scratch)
        scratch.moveAll(to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
    }
  }

  /// One group of a block, its length first (so that a reader can have it
  /// whole in its buffer), laid out in `scratch`: one append to the block per
  /// group, where appending each field was a third of writing a run.
  private static func appendGroup(
    _ group: UnsafePointer<GroupAccumulator>, states: [[UInt8]], currencies: [[UInt8]], scratch: inout RawScratch
  ) {
    // Through the pointer each field is read in place; a copy of the group
    // would retain and release every one of its arrays.
    guard let latest = group.pointee.latest else { return }
    let state = states[group.pointee.state]
    // Room for every field: the fixed parts, the names and the members' text.
    var room = 64 + state.count
    for total in group.pointee.totals { room += 32 + currencies[total.currency].count }
    for slot in group.pointee.members.slots { room += 64 + slot.textLength }
    scratch.reset(room: room)
    scratch.put(UInt32(0))
    // Lengths in 32 bits: a state or currency is any string a record holds.
    scratch.put(UInt32(truncatingIfNeeded: state.count))
    scratch.put(state)
    scratch.put(group.pointee.day.daysSinceEpoch)
    scratch.put(group.pointee.indicator.rawValue)
    scratch.put(Int64(group.pointee.count))
    scratch.put(UInt32(truncatingIfNeeded: group.pointee.totals.count))
    for total in group.pointee.totals {
      let currency = currencies[total.currency]
      scratch.put(UInt32(truncatingIfNeeded: currency.count))
      scratch.put(currency)
      scratch.put(Int64(total.count))
      put(total.sum, in: &scratch)
    }
    put(latest, in: &scratch)
    assert(!group.pointee.members.hasPendingText, "a member's text is still pending")
    scratch.put(UInt32(truncatingIfNeeded: group.pointee.members.entries.count))
    let text = group.pointee.members.text
    let slots = group.pointee.members.slots
    for entry in group.pointee.members.entries {
      let slot = slots[Int(entry.slot)]
      put(slot.instant, in: &scratch)
      put(slot.amount, in: &scratch)
      scratch.put(UInt32(truncatingIfNeeded: slot.textLength))
      scratch.put(UnsafeBufferPointer(rebasing: text[slot.textStart..<(slot.textStart + slot.textLength)]))
      scratch.put(Int32(truncatingIfNeeded: slot.idLength))
      scratch.put(Int32(truncatingIfNeeded: slot.currencyLength))
      scratch.put(UInt8(slot.hasDescription ? 1 : 0))
    }
    scratch.patch(UInt32(truncatingIfNeeded: scratch.count - 4), at: 0)
  }

  private static func appendInteger<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  private static func put(_ value: ExactDecimal, in scratch: inout RawScratch) {
    scratch.put(value.wide.low)
    scratch.put(value.wide.high)
    scratch.put(value.scale)
  }

  private static func put(_ stamp: Timestamp, in scratch: inout RawScratch) {
    scratch.put(stamp.year)
    scratch.put(stamp.month)
    scratch.put(stamp.day)
    scratch.put(stamp.hour)
    scratch.put(stamp.minute)
    scratch.put(stamp.second)
    scratch.put(stamp.fractionDigits)
    scratch.put(stamp.style.rawValue)
    scratch.put(UInt8(stamp.offsetNegative ? 1 : 0))
    scratch.put(stamp.nanosecond)
    scratch.put(stamp.offsetMinutes)
    scratch.put(stamp.epochSeconds)
  }
}

/// Raw memory a group is laid out in before it is appended to a run's
/// buffer in one piece: stores go straight to memory, with no capacity or
/// uniqueness check per field as `Array.append` makes. The caller makes
/// room for the most a group can take (`reset(room:)`) before writing it.
struct RawScratch: ~Copyable {
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 4_096
    storage = .allocate(byteCount: capacity, alignment: 8)
  }

  deinit { storage.deallocate() }

  /// Empties the scratch, with at least `room` bytes to write.
  mutating func reset(room: Int) {
    count = 0
    guard room > capacity else { return }
    storage.deallocate()
    capacity = max(room, capacity * 2)
    storage = .allocate(byteCount: capacity, alignment: 8)
  }

  mutating func put<T: FixedWidthInteger>(_ value: T) {
    precondition(count + MemoryLayout<T>.size <= capacity, "a run group larger than its room")
    storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: T.self)
    count += MemoryLayout<T>.size
  }

  mutating func put<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
    precondition(count + bytes.count <= capacity, "a run group larger than its room")
    let target = UnsafeMutableRawBufferPointer(start: storage + count, count: bytes.count)
    target.copyBytes(from: bytes)
    count += bytes.count
  }

  /// Overwrites `value` at `offset` (a length written before it was known).
  mutating func patch(_ value: UInt32, at offset: Int) {
    storage.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
  }

  /// Appends what was written to `out` and empties the scratch.
  mutating func moveAll(to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: storage.assumingMemoryBound(to: UInt8.self), count: count))
    count = 0
  }
}

/// Reads the blocks of one binary run (`AccountRunCodec`) front to back,
/// through a `SpillReader`.
final class AccountRunReader: AccountBlockSource {
  private let reader: SpillReader
  let name: String
  /// Blocks read so far (for messages: runs have no lines).
  private(set) var blockLine = 0

  /// A reader with a buffer of `bufferSize` bytes (less for a smaller run;
  /// a field longer than the buffer grows it).
  init(_ file: SpillFile, bufferSize: Int = 1 << 20) {
    reader = SpillReader(file: file, bufferSize: bufferSize)
    name = file.name
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
    // The group's bytes stay in the reader's buffer until the next `fill`.
    var group = GroupBytes(bytes: UnsafeBufferPointer(rebasing: reader.bytes[0..<length]))
    reader.consume(length)
    try merge(&group, into: table)
  }

  private func merge(_ group: inout GroupBytes, into table: GroupTable) throws(PartialStateError) {
    let state = table.states.intern(try group.bytes(Int(try group.integer(UInt32.self)), damaged))
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
    let totals = Int(try group.integer(UInt32.self))
    for _ in 0..<totals {
      let currencyBytes = try group.bytes(Int(try group.integer(UInt32.self)), damaged)
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

  /// Makes `count` bytes available; false when the run ends first.
  @inline(__always)
  private func fill(_ count: Int) throws(PartialStateError) -> Bool {
    do throws(SpillError) {
      return try reader.request(count)
    } catch {
      throw .input(.readFailed(path: name, reason: error.description))
    }
  }

  private func bytes(_ count: Int) throws(PartialStateError) -> [UInt8] {
    guard try fill(count) else { throw damaged("it ends inside a block") }
    defer { reader.consume(count) }
    return Array(reader.bytes[0..<count])
  }

  private func integer<T: FixedWidthInteger>(_: T.Type) throws(PartialStateError) -> T {
    let size = MemoryLayout<T>.size
    guard try fill(size) else { throw damaged("it ends inside a block") }
    let value = reader.pointer.loadUnaligned(as: T.self)
    reader.consume(size)
    return T(littleEndian: value)
  }
}

/// One group's bytes in a run, read front to back; every read checks what is left.
struct GroupBytes {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  @inline(__always)
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
    // One check for the timestamp's 24 bytes (see `AccountRunCodec.put(_:in:)`),
    // then plain loads: a merge reads two or more timestamps a group.
    let size = 24
    guard bytes.count - offset >= size, let base = bytes.baseAddress else { throw damaged("a group ends early") }
    let raw = UnsafeRawPointer(base + offset)
    offset += size
    func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
      T(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: T.self))
    }
    guard let style = Timestamp.OffsetStyle(rawValue: load(8, UInt8.self)) else {
      throw damaged("an unknown timestamp style")
    }
    return Timestamp(
      year: load(0, Int16.self), month: load(2, UInt8.self), day: load(3, UInt8.self), hour: load(4, UInt8.self),
      minute: load(5, UInt8.self), second: load(6, UInt8.self), fractionDigits: load(7, UInt8.self), style: style,
      offsetNegative: load(9, UInt8.self) != 0, nanosecond: load(10, UInt32.self), offsetMinutes: load(14, Int16.self),
      epochSeconds: load(16, Int64.self))
  }
}
