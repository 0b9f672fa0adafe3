/// Folds transactions into groups keyed by (state, day, indicator).
///
/// Design: states and currencies are interned to small numbers and the key is
/// packed into one `UInt64`, so a fold is one hash look-up (skipped when the
/// record has the same key as the previous one, as sorted dumps mostly do), a
/// count, an exact add per currency and a member offer that allocates only if
/// the member is kept. Memory grows with the number of groups and kept
/// members, never with the number of records.
///
/// Worked example: folding `{"state":"pending","creationTime":"2019-05-17T10:00:00",
/// "creditDebitIndicator":"CRDT","transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"}}`
/// interns `PENDING` as state 0 and `EUR` as currency 0, packs the key
/// (0, day 18033, CRDT), and adds 1.50 to that group's EUR total.
///
/// One table per worker thread; `merge(_:)` combines them.
///
/// Exclusivity: a table is used by one thread at a time and its methods never
/// call out while they modify a stored property, so no two accesses to one can
/// overlap. The properties the per-record path touches are therefore marked
/// `@exclusivity(unchecked)`: the runtime's dynamic check (a thread-local access
/// set, two calls per access) would otherwise cost several accesses' worth of
/// work on every record.
@_spi(Benchmarks) public final class GroupTable {
  /// Upper-cased states, by number.
  public let states = ByteStringInterner(upperCasing: true)
  /// Upper-cased currency codes, by number.
  public let currencies = ByteStringInterner(upperCasing: true)
  /// The most members a group keeps (`Int.max` for all).
  public let memberLimit: Int
  @exclusivity(unchecked) @usableFromInline var index = GroupIndex()
  @exclusivity(unchecked) @usableFromInline var groups: [GroupAccumulator] = []
  @exclusivity(unchecked) @usableFromInline var lastKey: UInt64 = .max
  @exclusivity(unchecked) @usableFromInline var lastGroup = -1
  /// Groups with members whose text is still in the records being folded.
  @exclusivity(unchecked) @usableFromInline var groupsWithPendingText: [Int] = []
  /// Records whose group is found but who are folded a little later (see
  /// `GroupTable+Ahead.swift`), so that the group's memory is on its way.
  @exclusivity(unchecked) @usableFromInline var ahead = FoldQueue()
  /// The first group whose total overflowed, for the error message.
  public private(set) var overflow: (state: String, date: String, currency: String)?
  /// Whether groups are also keyed by account (`setAccount(_:)` names the
  /// account of the records folded next).
  public let perAccount: Bool
  /// Account ids as written, by number (per-account tables only).
  @exclusivity(unchecked) public internal(set) var accounts = ByteStringInterner(upperCasing: false)
  /// The (account, key) index of a per-account table; `index` stays empty.
  @exclusivity(unchecked) @usableFromInline var accountIndex = AccountGroupIndex()
  /// The account of the records folded next (per-account tables).
  @exclusivity(unchecked) @usableFromInline var currentAccount: UInt32 = 0
  /// Per-account tables: an upper bound on the members kept, for `estimatedBytes`.
  @exclusivity(unchecked) @usableFromInline var keptMemberBound = 0
  /// Per-account tables: the groups' member text beyond what `memberBytes`
  /// assumes for each kept member (long descriptions), for `estimatedBytes`.
  @exclusivity(unchecked) @usableFromInline var textExcessBytes = 0
  /// Per-account tables: storage of removed groups, for new ones (see
  /// `GroupAccumulator+Recycling.swift`).
  @exclusivity(unchecked) @usableFromInline var recycled: [GroupAccumulator.Storage] = []
  /// A `--dedupe` first pass's table: what it keeps so that records can be
  /// taken out again (`retract(_:reportingMembers:)`); `nil` otherwise.
  @exclusivity(unchecked) @usableFromInline var reserve: RetractionReserve? {
    didSet { reserveHandle = reserve.map { Unmanaged.passUnretained($0) } }
  }
  /// `reserve` without ownership, for the note of each record folded: binding
  /// the stored reference retained and released the reserve for every record.
  @exclusivity(unchecked) @usableFromInline var reserveHandle: Unmanaged<RetractionReserve>?
  /// The member floors this table shares with the other workers of its fold
  /// (`MemberFloors.swift`), `nil` when it shares none; what the per-record
  /// path reads of them is copied beside it.
  @exclusivity(unchecked) @usableFromInline var sharedFloors: SharedMemberFloors?
  /// This table's word in each group's floors, and the floors' settings.
  @exclusivity(unchecked) @usableFromInline var floorWorker = 0
  @exclusivity(unchecked) @usableFromInline var floorWorkers = 0
  @exclusivity(unchecked) @usableFromInline var floorNeeded = 0
  @exclusivity(unchecked) @usableFromInline var floorRank = 0

  /// Creates an empty table keeping at most `memberLimit` members per group;
  /// with `perAccount`, groups are per account too.
  public init(memberLimit: Int, perAccount: Bool = false) {
    self.memberLimit = memberLimit
    self.perAccount = perAccount
  }

  /// Creates an empty table whose records can be taken out again: it keeps
  /// more members per group than `reportedMembers` (which `retract` or
  /// `trimMembers` trims it to) and what else that needs.
  convenience init(retractableReporting reportedMembers: Int) {
    self.init(memberLimit: RetractionReserve.memberLimit(reporting: reportedMembers))
    let kept = RetractionReserve()
    reserve = kept
    // Set here too: an initializer's assignment does not run `didSet`.
    reserveHandle = Unmanaged.passUnretained(kept)
  }

  /// The number of groups so far.
  public var groupCount: Int { groups.count }

  /// Makes the records folded next belong to the account `bytes` (per-account tables).
  @inlinable
  public func setAccount(_ bytes: UnsafeBufferPointer<UInt8>) {
    setAccount(number: UInt32(truncatingIfNeeded: accounts.intern(bytes)))
  }

  /// Makes the account numbered `number` in `accounts` current; the last
  /// group found belongs to the previous account, so it is forgotten.
  @inlinable
  func setAccount(number: UInt32) {
    if number != currentAccount {
      currentAccount = number
      lastKey = .max
    }
  }

  @inlinable
  static func packKey(state: Int, day: CalendarDay, indicator: CreditDebitIndicator) -> UInt64 {
    UInt64(state) << 33 | UInt64(indicator.rawValue) << 32 | UInt64(UInt32(bitPattern: day.daysSinceEpoch))
  }

  /// The group for a key, created when new.
  @inlinable
  func groupIndex(state: Int, day: CalendarDay, indicator: CreditDebitIndicator) -> Int {
    let key = Self.packKey(state: state, day: day, indicator: indicator)
    if key == lastKey { return lastGroup }
    if perAccount { return accountGroupIndex(key: key, state: state, day: day, indicator: indicator) }
    var found = index.find(key)
    if found < 0 {
      groups.append(GroupAccumulator(state: state, day: day, indicator: indicator, memberLimit: memberLimit))
      found = groups.count - 1
      index.insert(key, found)
      if sharedFloors != nil { attachFloor(toGroupAt: found) }
    }
    lastKey = key
    lastGroup = found
    return found
  }

  /// `groupIndex` for a per-account table: the group of the current account.
  @usableFromInline @inline(never)
  func accountGroupIndex(key: UInt64, state: Int, day: CalendarDay, indicator: CreditDebitIndicator) -> Int {
    var found = accountIndex.find(key, account: currentAccount)
    if found < 0 {
      // Made in place in the array: a local group copied in cost a retain
      // and a release of each of its arrays.
      groups.append(GroupAccumulator(state: state, day: day, indicator: indicator, memberLimit: memberLimit))
      found = groups.count - 1
      groups[found].account = currentAccount
      if !recycled.isEmpty {
        groups[found].adoptStorage(&recycled[recycled.count - 1])
        recycled.removeLast()
      }
      accountIndex.insert(key, account: currentAccount, found)
    }
    lastKey = key
    lastGroup = found
    return found
  }

  /// Folds one decoded record whose bytes are `record`.
  ///
  /// - Returns: `false` when a currency total would overflow 128 bits.
  /// - Complexity: amortised O(1) plus O(log N) for a kept member.
  @inlinable
  public func fold(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: Int) -> Bool {
    var decoded = decoded
    return fold(&decoded, record: record, defaultState: defaultState)
  }

  /// `fold(_:record:defaultState:)` reading the record where it is: a worker
  /// folds the `DecodedRecord` it reuses (a variable its closure captures)
  /// without the copy a by-value argument takes of it (226 bytes, a `memcpy`).
  /// `decoded` is not changed.
  @inlinable
  public func fold(_ decoded: inout DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: Int) -> Bool {
    fold(&decoded, record: record, defaultState: defaultState, deferringText: false)
  }

  /// `fold(_:record:defaultState:)`; with `deferringText`, the record may be
  /// folded a few records later (`foldAhead`), and a kept member's id,
  /// currency and description stay in `record` until `finishChunk()`, which
  /// the caller must call while `record`'s bytes are still there and
  /// unchanged (a worker does at the end of each chunk). Members dropped
  /// before then are never decoded or copied. The result may be that of a
  /// record queued earlier: `false` when some total overflowed.
  @inlinable
  func fold(
    _ decoded: inout DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: Int, deferringText: Bool
  ) -> Bool {
    let state = stateNumber(decoded, record: record, defaultState: defaultState)
    if decoded.currency.kind == .escapedString {
      let queuedFolded = foldQueued()
      return foldEscapedCurrency(decoded, record: record, state: state) && queuedFolded
    }
    let currencyCode = Self.bytes(decoded.currency, record)
    if deferringText {
      return foldAhead(decoded, record: record, state: state, currencyCode: currencyCode)
    }
    let queuedFolded = foldQueued()
    return fold(decoded, record: record, state: state, currencyCode: currencyCode) && queuedFolded
  }

  /// The number of the record's state: as written, else `defaultState`.
  @inlinable @inline(__always)
  func stateNumber(_ decoded: borrowing DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: Int) -> Int {
    // No closures on the usual path (strings without escapes): a closure that
    // captures the table costs a retain and a release of it per call.
    switch decoded.state.kind {
    case .absent: return defaultState
    case .escapedString: return internEscaped(decoded.state, record, in: states)
    default: return states.intern(Self.bytes(decoded.state, record))
    }
  }

  /// `fold(_:record:defaultState:)` for a record whose schema supplies its
  /// currency (`suppliedCurrency`, such as the ledger's `--currency`) instead of
  /// reading it from a field: the code is used where it is, never appended to
  /// a copy of the record. The member's text is written at once.
  func fold(
    _ decoded: inout DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: Int,
    suppliedCurrency: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let state = stateNumber(decoded, record: record, defaultState: defaultState)
    let queuedFolded = foldQueued()
    return fold(decoded, record: record, state: state, currencyCode: suppliedCurrency) && queuedFolded
  }

  /// `fold(_:record:defaultState:)` once the state is known and the currency
  /// code's bytes (decoded) are at hand.
  @inlinable @inline(__always)
  func fold(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, state: Int, currencyCode: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    fold(found(decoded, record: record, state: state, currencyCode: currencyCode), deferringText: false)
  }

  /// A record with its group and currency found (the group made when new).
  @inlinable @inline(__always)
  func found(
    _ decoded: borrowing DecodedRecord, record: UnsafeBufferPointer<UInt8>, state: Int,
    currencyCode: UnsafeBufferPointer<UInt8>
  ) -> FoundRecord {
    FoundRecord(
      decoded, record: record, currencyCode: currencyCode, currency: currencies.intern(currencyCode),
      group: groupIndex(state: state, day: decoded.day, indicator: decoded.indicator))
  }

  /// Folds a record whose group is found; see `fold(_:record:defaultState:deferringText:)`.
  @inlinable @inline(__always)
  func fold(_ record: FoundRecord, deferringText: Bool) -> Bool {
    let group = record.group
    let currency = record.currency
    let hadPendingText = groups[group].members.hasPendingText
    let folded = groups[group].fold(
      instant: record.instant, amount: record.amount.magnitude, currency: currency, id: record.id,
      currencyCode: record.currencyCode, description: record.description, record: record.bytes,
      deferringText: deferringText,
      floor: MemberFloor(words: groups[group].floorWords, workers: floorWorkers, needed: floorNeeded))
    if deferringText && !hadPendingText && groups[group].members.hasPendingText {
      groupsWithPendingText.append(group)
    }
    if folded, let reserve = reserveHandle {
      reserve._withUnsafeGuaranteedRef {
        $0.note(group: group, currency: currency, instant: record.instant, scale: record.amount.scale)
      }
    }
    if perAccount {
      if groups[group].count <= memberLimit { keptMemberBound += 1 }
      noteTextGrowth(of: group)
    }
    return folded || noteOverflow(group: group, currency: currency)
  }

  /// Folds the records still queued and copies the text of every kept member
  /// folded with `deferringText` from its record (see
  /// `fold(_:record:defaultState:deferringText:)`): after this the table no
  /// longer points into the records.
  ///
  /// - Returns: `false` when a queued record's currency total would overflow.
  /// - Complexity: O(members of the groups with pending text).
  func finishChunk() -> Bool {
    let queuedFolded = foldQueued()
    writePendingText()
    return queuedFolded
  }

  /// Copies the text of every kept member folded with `deferringText` (the
  /// second half of `finishChunk()`).
  ///
  /// Out of day order nearly every group has some pending at the end of a
  /// chunk, each one's accumulator, slots and arena a cache miss: they are
  /// asked for a few groups ahead so that the misses overlap.
  private func writePendingText() {
    let count = groupsWithPendingText.count
    for position in 0..<count {
      if position + 8 < count {
        prefetch(accumulatorOfGroupAt: groupsWithPendingText[position + 8], storageOfGroupAt: -1)
      }
      if position + 4 < count { prefetchStorage(ofGroupAt: groupsWithPendingText[position + 4]) }
      let group = groupsWithPendingText[position]
      groups[group].members.writePendingText()
      // The group's members changed in this chunk: the other workers may now leave out more.
      if let words = groups[group].floorWords {
        groups[group].members.publishFloor(to: words + floorWorker, rank: floorRank)
      }
      if perAccount { noteTextGrowth(of: group) }
    }
    groupsWithPendingText.removeAll(keepingCapacity: true)
  }

  /// The rare path of a currency code written with escapes: decoded into temporary memory.
  @usableFromInline @inline(never)
  func foldEscapedCurrency(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, state: Int) -> Bool {
    Self.withDecoded(decoded.currency, record) { fold(decoded, record: record, state: state, currencyCode: $0) }
  }

  /// The number of a state or currency written with escapes.
  @usableFromInline @inline(never)
  func internEscaped(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>, in interner: ByteStringInterner) -> Int {
    Self.withDecoded(ref, record) { interner.intern($0) }
  }

  /// A value's bytes as written (for strings, without the quotes).
  @inlinable @inline(__always)
  static func bytes(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
  }

  /// Folds one transaction given as values (the in-memory and `--dedupe` path).
  ///
  /// - Returns: `false` when a currency total would overflow 128 bits, as an amount of -2^127
  ///   does at once: a total is a sum of magnitudes, and its magnitude does not fit.
  public func fold(_ transaction: Transaction, zone: ZoneResolver = .asWritten) -> Bool {
    let state = Array(transaction.state.utf8).withUnsafeBufferPointer { states.intern($0) }
    // Upper-cased as the decoder's records are, so that a member shows its total's code.
    let currencyBytes = transaction.currency.utf8.map(ByteStringInterner.upper)
    let currency = currencies.intern(currencyBytes)
    var instant = transaction.instant
    let day = zone.resolve(&instant)
    guard transaction.amount.wide != .min else {
      if overflow == nil {
        overflow = (
          String(decoding: states.strings[state], as: UTF8.self), day.description,
          String(decoding: currencyBytes, as: UTF8.self)
        )
      }
      return false
    }
    return fold(
      state: state, day: day, indicator: transaction.creditDebitIndicator, currency: currency,
      member: KeptMember(
        instant: instant, amount: transaction.amount.magnitude, id: Array(transaction.id.utf8),
        currency: currencyBytes, description: transaction.description.map { Array($0.utf8) }))
  }

  /// Folds a member whose state, day and currency are already resolved.
  func fold(state: Int, day: CalendarDay, indicator: CreditDebitIndicator, currency: Int, member: KeptMember) -> Bool {
    guard foldQueued() else { return false }
    let group = groupIndex(state: state, day: day, indicator: indicator)
    guard groups[group].add(amount: member.amount, currency: currency, instant: member.instant) else {
      return noteOverflow(group: group, currency: currency)
    }
    groups[group].members.offer(member)
    reserve?.note(group: group, currency: currency, instant: member.instant, scale: member.amount.scale)
    if perAccount {
      if groups[group].count <= memberLimit { keptMemberBound += 1 }
      noteTextGrowth(of: group)
    }
    return true
  }

  /// Records where a total overflowed; returns `false` for the caller to pass on.
  @usableFromInline
  func noteOverflow(group: Int, currency: Int) -> Bool {
    if overflow == nil {
      overflow = (
        String(decoding: states.strings[groups[group].state], as: UTF8.self), groups[group].day.description,
        String(decoding: currencies.strings[currency], as: UTF8.self)
      )
    }
    return false
  }

  /// Appends a value's text: strings decoded, numbers as written.
  @usableFromInline
  static func appendDecoded(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind == .escapedString {
      // The decoder already checked that this string decodes.
      _ = StringDecoder.withDecoded(raw) { out.append(contentsOf: $0) }
    } else {
      out.append(contentsOf: raw)
    }
  }

  /// Calls `body` with a string value's decoded bytes (the decoder already
  /// checked that it decodes; were it not to, `body` sees it as written).
  @inlinable
  static func withDecoded<T>(
    _ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind != .escapedString { return body(raw) }
    return StringDecoder.withDecoded(raw, body) ?? body(raw)
  }
}

/// One group being folded: its key, count, exact totals per currency, latest
/// timestamp and kept members.
@_spi(Benchmarks) public struct GroupAccumulator {
  /// The group's interned state number.
  public var state: Int
  /// The group's day.
  public var day: CalendarDay
  /// Whether the group is money in or out.
  public var indicator: CreditDebitIndicator
  /// The group's account number in a per-account table (`GroupTable.accounts`), else 0.
  public var account: UInt32 = 0
  /// Transactions folded in, all of them.
  public var count = 0
  /// Sums of magnitudes and how many transactions each sums, by interned
  /// currency number (the counts add up to `count`); the first inline.
  public var totals = GroupTotals()
  /// The latest timestamp folded in; `nil` only before the first.
  public var latest: Timestamp?
  /// The members kept for the report.
  public var members: MemberHeap
  /// The group's words in the floors its table shares with the other
  /// workers of its fold (`MemberFloors.swift`), `nil` when it shares none.
  @usableFromInline var floorWords: UnsafeMutablePointer<Int64>?

  @inlinable
  init(state: Int, day: CalendarDay, indicator: CreditDebitIndicator, memberLimit: Int) {
    self.state = state
    self.day = day
    self.indicator = indicator
    members = MemberHeap(limit: memberLimit)
  }

  /// Counts a record, adds its amount and offers its member, in one access
  /// to the group (one uniqueness check of the table's group array);
  /// `false` on overflow, when the member is not offered.
  @inlinable @inline(__always)
  mutating func fold(
    instant: Timestamp, amount: ExactDecimal, currency: Int, id: ValueRef, currencyCode: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>, deferringText: Bool, floor: MemberFloor = .none
  ) -> Bool {
    guard add(amount: amount, currency: currency, instant: instant) else { return false }
    members.offer(
      instant: instant, amount: amount, id: id, currency: currencyCode, description: description, record: record,
      deferringText: deferringText, floor: floor)
    return true
  }

  /// Counts one transaction and adds its amount; `false` on overflow.
  @inlinable
  mutating func add(amount: ExactDecimal, currency: Int, instant: Timestamp) -> Bool {
    count += 1
    if let current = latest {
      if instant.compareTotal(current) > 0 { latest = instant }
    } else {
      latest = instant
    }
    return addTotal(amount, currency: currency)
  }

  /// Adds `amount`, the sum of `count` transactions, to the total in
  /// `currency`; `false` on overflow, when nothing changes.
  @inlinable
  mutating func addTotal(_ amount: ExactDecimal, currency: Int, count: Int = 1) -> Bool {
    totals.add(amount, currency: currency, count: count)
  }
}
