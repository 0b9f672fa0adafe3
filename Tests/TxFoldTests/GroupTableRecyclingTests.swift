import Testing

@_spi(Benchmarks) @testable import TxFold

/// A per-account table keeps the storage of removed one-member groups for its
/// next groups (`GroupAccumulator+Recycling.swift`): what it folds afterwards
/// must be exactly what a new table folds, and the kept storage must count in
/// `estimatedBytes` until it is reused.
@Suite("Per-account tables reuse removed groups' storage")
struct GroupTableRecyclingTests {
  /// Records of `accounts` accounts: most groups get one member, some get
  /// several (more than the limit), in two currencies, with descriptions of
  /// different lengths (so reused text room is sometimes too small).
  static func transactions(seed: Int, accounts: Int) throws -> [(account: String, transaction: Transaction)] {
    var result: [(String, Transaction)] = []
    for index in 0..<(accounts * 3) {
      let day = 1 + (index * 7 + seed) % 20
      let second = (index * 13 + seed) % 60
      let instant = try #require(
        TimestampParser.parse("2024-05-\(day < 10 ? "0" : "")\(day)T10:00:\(second < 10 ? "0" : "")\(second)Z"))
      let description = String(repeating: "d", count: (index * 31 + seed) % 150)
      let transaction = Transaction(
        id: "id-\(seed)-\(index)", instant: instant, amount: ExactDecimal("\(index % 90).\(index % 10)5") ?? .zero,
        currency: index % 5 == 0 ? "USD" : "EUR", creditDebitIndicator: index % 2 == 0 ? .credit : .debit,
        state: index % 3 == 0 ? "PENDING" : "COMPLETED", description: description.isEmpty ? nil : description)
      // Account 0 gets many records a group; the others few.
      result.append(("acct-\(index % 4 == 0 ? 0 : index % accounts)", transaction))
    }
    return result
  }

  static func fold(_ records: [(account: String, transaction: Transaction)], into table: GroupTable) {
    for (account, transaction) in records {
      Array(account.utf8).withUnsafeBufferPointer { table.setAccount($0) }
      #expect(table.fold(transaction))
    }
  }

  /// Every account's report, in the table's account order.
  static func reports(_ table: GroupTable) -> [AccountReport] {
    table.groupsByAccount().map { account, groups in
      table.accountReport(account: table.accounts.strings[Int(account)], groups: groups, members: true)
    }
  }

  @Test("a refilled table folds what a new table folds, member for member")
  func refilledTableAgrees() throws {
    let table = GroupTable(memberLimit: 3, perAccount: true)
    for seed in 0..<4 {
      let records = try Self.transactions(seed: seed, accounts: 50)
      Self.fold(records, into: table)
      #expect(table.finishChunk())
      let fresh = GroupTable(memberLimit: 3, perAccount: true)
      Self.fold(records, into: fresh)
      #expect(fresh.finishChunk())
      #expect(Self.reports(table) == Self.reports(fresh), "seed \(seed)")
      table.removeAllGroups(keepingCapacity: seed % 2 == 0)
      if seed == 0 {
        #expect(!table.recycled.isEmpty, "one-member groups left their storage")
      }
    }
  }

  @Test("a written table of sorted input comes back emptied for a worker's next chunk, its states' numbers kept")
  func sortedStreamReusesWrittenTables() throws {
    let stream = SortedAccountStream(depth: 2, budget: 1 << 20) { _ in RunStats() }
    defer { stream.stop() }
    let table = GroupTable(memberLimit: 3, perAccount: true)
    let records = try Self.transactions(seed: 2, accounts: 20)
    Self.fold(records, into: table)
    #expect(table.finishChunk())
    let pending = table.states.intern(Array("PENDING".utf8))
    stream.recycle(table)
    let spare = try #require(stream.spareTable())
    #expect(spare === table)
    #expect(spare.groupCount == 0 && spare.accounts.count == 0)
    #expect(spare.recycled.isEmpty, "its groups' storage is freed: kept, it would lie all over the heap")
    #expect(spare.states.intern(Array("PENDING".utf8)) == pending)
    #expect(stream.spareTable() == nil)
    // Refilled, it folds what a new table folds.
    Self.fold(records, into: spare)
    #expect(spare.finishChunk())
    let fresh = GroupTable(memberLimit: 3, perAccount: true)
    Self.fold(records, into: fresh)
    #expect(fresh.finishChunk())
    #expect(Self.reports(spare) == Self.reports(fresh))
    // No more spares are kept than chunks can wait.
    for _ in 0..<10 { stream.recycle(GroupTable(memberLimit: 3, perAccount: true)) }
    var spares = 0
    while stream.spareTable() != nil { spares += 1 }
    #expect(spares == 4)
  }

  @Test("kept storage counts in estimatedBytes, and is freed without recycling")
  func keptStorageIsCounted() throws {
    let table = GroupTable(memberLimit: 20, perAccount: true)
    Self.fold(try Self.transactions(seed: 1, accounts: 200), into: table)
    #expect(table.finishChunk())
    let empty = GroupTable(memberLimit: 20, perAccount: true).estimatedBytes
    table.removeAllGroups()
    let kept = table.recycled.count
    #expect(kept > 30)
    #expect(table.estimatedBytes >= empty + kept * (GroupTable.groupOverheadBytes + GroupTable.memberBytes))
    // Only storage with room for one member is kept.
    #expect(table.recycled.allSatisfy { $0.members.hasOneMemberRoom && $0.totals.hasInlineRoomOnly })
    #expect(table.recycled.allSatisfy { $0.members.count == 0 && $0.totals.isEmpty })
    table.removeAllGroups(recycling: false)
    #expect(table.recycled.isEmpty)
  }

  @Test("prefetching reads the totals' and the members' references where their storage lies, and changes nothing")
  func prefetchAddresses() throws {
    // The totals' array and the members' block found in the accumulator's layout, or prefetching is off.
    #expect(GroupAccumulator.arrayOffsets.count == 2)
    let folded = try #require(GroupAccumulator.foldedOffsets)
    #expect(folded.storage == GroupAccumulator.arrayOffsets[1])
    let table = GroupTable(memberLimit: 20, perAccount: true)
    Self.fold(try Self.transactions(seed: 3, accounts: 50), into: table)
    let before = Self.reports(table)
    try table.groups.withUnsafeBufferPointer { all in
      let base = try #require(all.baseAddress)
      for position in all.indices {
        let raw = UnsafeRawPointer(base + position)
        // The bits read are the address of the storage object, whose
        // elements start a header (32 bytes on 64-bit) after it.
        let totals = raw.load(fromByteOffset: GroupAccumulator.arrayOffsets[0], as: UInt.self)
        let elements = all[position].totals.rest.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(elements > totals && elements - totals <= 64)
        // The members' block: its entries start where the fold's prefetch reckons.
        let block = raw.load(fromByteOffset: GroupAccumulator.arrayOffsets[1], as: UInt.self)
        let entries = UInt(bitPattern: all[position].members.entries.baseAddress)
        #expect(block != 0 && entries == block + UInt(folded.entries))
        GroupAccumulator.prefetchStorage(of: base + position)
      }
    }
    table.prefetchAccumulators(Array(table.groups.indices)[...])
    table.prefetchStorage(Array(table.groups.indices)[...])
    #expect(Self.reports(table) == before)
  }
}
