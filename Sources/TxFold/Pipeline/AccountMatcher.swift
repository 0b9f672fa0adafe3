/// A nightly merge's dedupe of one account at a time, for a run keyed by
/// account and id (`--per-account`): last night's records of the account
/// against tonight's winners of it, in the second pass's merge (`StateMerge`),
/// so that the first pass need not read the previous state at all.
///
/// Both sides are in account order, and a key is an account and an id, so
/// a previous record can only meet tonight's records of its own account.
/// When the merge reaches an account that both sides hold, the matcher takes
/// tonight's records of it from their cursor (`open`), with a table of their
/// ids; each of the previous state's records of the account is then looked
/// up by its id's bytes (`previousLoses`): of two versions of a key the later
/// instant wins and, on a tie, tonight's (the later place), as `--dedupe`'s
/// winner rule has it. The previous record that loses is left out of the
/// merge; tonight's that loses is left out when the account's tonight
/// records follow its previous ones (`nextTonight`), as they always do.
///
/// Memory: one account's tonight records. The first pass uses it only when
/// no account's exceed a share of the budget (`TonightRecords.largestAccountBound`);
/// otherwise the previous state's ids are judged in the first pass as in any
/// `--dedupe` run (`NightlyState.addPreviousEntries`).
///
/// `@exclusivity(unchecked)` on what is read per record: one thread uses a
/// matcher (the merge's), and the runtime's dynamic check (a thread-local
/// access set, two calls per access) cost more than the look-up around it.
final class AccountMatcher {
  private let decoder: RecordDecoder
  private var decoded = DecodedRecord()
  /// The account open, copied.
  @exclusivity(unchecked) private var account: [UInt8] = []
  @exclusivity(unchecked) private(set) var isOpen = false
  /// Whether the open account's previous records are done, and its tonight records are handed out.
  @exclusivity(unchecked) private(set) var isDraining = false
  /// Tonight's records of the open account: their payloads, one after another.
  @exclusivity(unchecked) private var bytes: UnsafeMutableRawBufferPointer
  @exclusivity(unchecked) private var used = 0
  private struct Tonight {
    var payload: Range<Int>
    /// The id's bytes within `bytes`; `nil` for a position standing in for an id (no key).
    var id: Range<Int>?
    var hash: UInt64
    var lost: Bool
  }
  @exclusivity(unchecked) private var records: [Tonight] = []
  /// The records with an id by their hash: a slot holds a record's index + 1 (0: empty).
  @exclusivity(unchecked) private var slots: [Int32] = []
  @exclusivity(unchecked) private var slotBits = 0
  @exclusivity(unchecked) private var nextTonightIndex = 0
  /// Records of either side that lost here.
  private(set) var duplicates = 0

  init(zone: ZoneResolver) {
    decoder = RecordDecoder(schema: NightlyState.stateSchema, zone: zone)
    bytes = .allocate(byteCount: 1 << 16, alignment: 8)
  }

  deinit { bytes.deallocate() }

  /// Whether `account` is the account open.
  @inline(__always)
  func isOpen(for account: UnsafeRawBufferPointer) -> Bool {
    isOpen && account.elementsEqual(self.account)
  }

  /// Opens `account`, taking tonight's records of it from `winners` (which
  /// moves past them; there may be none).
  func open(_ account: UnsafeRawBufferPointer, from winners: TonightRecords.Cursor) throws(SpillError) {
    self.account.removeAll(keepingCapacity: true)
    self.account.append(contentsOf: account)
    isOpen = true
    isDraining = false
    used = 0
    records.removeAll(keepingCapacity: true)
    nextTonightIndex = 0
    while let entry = winners.current, ByteOrder.compare(entry.account, account) == 0 {
      let start = used
      append(entry.payload)
      var record = Tonight(payload: start..<used, id: nil, hash: 0, lost: false)
      if let fields = StateRecord.fields(of: entry.payload), !fields.positionalID,
        let idStart = fields.id.baseAddress, let payloadStart = entry.payload.baseAddress
      {
        let offset = start + (idStart - payloadStart)
        record.id = offset..<(offset + fields.id.count)
        record.hash = Self.hash(fields.id)
      }
      records.append(record)
      try winners.advance()
    }
    index()
  }

  /// Whether the previous state's record `payload`, of the open account,
  /// loses to tonight's version of its key; when tonight's loses to it,
  /// that one is marked to be left out.
  func previousLoses(_ payload: UnsafeRawBufferPointer) -> Bool {
    // The id alone: a record that is not whole is left in here, and the second pass refuses it as damage.
    guard !slots.isEmpty, let (id, positional) = StateRecord.id(of: payload), !positional else { return false }
    guard let match = find(id), !records[match].lost else { return false }
    // A record that does not decode is left in: the second pass refuses it as damage.
    guard let previous = instant(of: payload), let tonight = instant(of: tonightPayload(match)) else { return false }
    duplicates += 1
    if previous.compareInstant(tonight) > 0 {
      records[match].lost = true
      return false
    }
    return true
  }

  /// Ends the open account's previous records: `nextTonight` hands out its tonight records.
  func drain() { isDraining = true }

  /// The open account's next tonight record that did not lose (valid until
  /// the next account is opened); `nil` after the last, which closes the account.
  func nextTonight() -> UnsafeRawBufferPointer? {
    while nextTonightIndex < records.count {
      let record = records[nextTonightIndex]
      nextTonightIndex += 1
      if !record.lost { return tonightPayload(nextTonightIndex - 1) }
    }
    isOpen = false
    isDraining = false
    return nil
  }

  private func tonightPayload(_ index: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: bytes[records[index].payload])
  }

  private func instant(of payload: UnsafeRawBufferPointer) -> Timestamp? {
    guard StateRecord.decode(payload.assumingMemoryBound(to: UInt8.self), with: decoder, into: &decoded) == nil
    else { return nil }
    return decoded.instant
  }

  /// The id's hash, seeded per process (`IDPartitions.tableSeed`): ids crafted to share a hash
  /// cannot crowd one slot of the table.
  private static func hash(_ id: UnsafeRawBufferPointer) -> UInt64 {
    DedupeKeyHash.hash(id, seed: IDPartitions.tableSeed)
  }

  /// Puts the records with an id in the table (twice as many slots as records).
  private func index() {
    slots.removeAll(keepingCapacity: true)
    let keyed = records.reduce(0) { $0 + ($1.id == nil ? 0 : 1) }
    guard keyed > 0 else { return }
    slotBits = Int.bitWidth - (2 * keyed - 1).leadingZeroBitCount
    slots.append(contentsOf: repeatElement(0, count: 1 << slotBits))
    let mask = (1 << slotBits) - 1
    for (index, record) in records.enumerated() where record.id != nil {
      var slot = firstSlot(record.hash)
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(truncatingIfNeeded: index + 1)
    }
  }

  @inline(__always)
  private func firstSlot(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
  }

  /// Tonight's record whose id is `id`'s bytes, if any.
  private func find(_ id: UnsafeRawBufferPointer) -> Int? {
    let hash = Self.hash(id)
    let mask = slots.count - 1
    var slot = firstSlot(hash)
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      if records[index].hash == hash, let range = records[index].id,
        UnsafeRawBufferPointer(rebasing: bytes[range]).elementsEqual(id)
      {
        return index
      }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Appends a payload to `bytes`, growing it as needed.
  private func append(_ payload: UnsafeRawBufferPointer) {
    if used + payload.count > bytes.count {
      bytes.grow(toAtLeast: used + payload.count, keeping: 0..<used, alignment: 8)
    }
    UnsafeMutableRawBufferPointer(rebasing: bytes[used..<(used + payload.count)]).copyMemory(from: payload)
    used += payload.count
  }
}
