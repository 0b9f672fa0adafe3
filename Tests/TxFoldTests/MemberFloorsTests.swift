import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// Workers of one fold share floors on their groups' members
/// (`MemberFloors.swift`): a record that enough other workers hold newer
/// members for is not kept. That must never change what the merged tables
/// report, whatever the chunks, the number of workers, the member limit and
/// the ties, and it must leave records out where it can.
@Suite("Shared member floors")
struct MemberFloorsTests {
  /// Folds `records` into `table` as a worker folds a chunk: deferred text,
  /// then the chunk's end, then the bytes overwritten and freed.
  static func foldChunk(_ records: ArraySlice<String>, into table: GroupTable) {
    let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: false)
    var buffers: [UnsafeMutableBufferPointer<UInt8>] = []
    var folded = true
    for text in records {
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
      _ = buffer.initialize(from: text.utf8)
      buffers.append(buffer)
      guard case .success(var decoded) = decoder.decode(UnsafeBufferPointer(buffer)) else {
        Issue.record("a record does not decode: \(text)")
        continue
      }
      folded = table.fold(&decoded, record: UnsafeBufferPointer(buffer), defaultState: 0, deferringText: true) && folded
    }
    folded = table.finishChunk() && folded
    for buffer in buffers {
      buffer.update(repeating: UInt8(ascii: "#"))
      buffer.deallocate()
    }
    #expect(folded)
  }

  /// Records over a few groups, their instants spread over a day with many
  /// on the same second and some on the same instant written two ways.
  static func records(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { index in
      let day = 1 + Int(random.next() % 3)
      let second = Int(random.next() % 600)
      let fraction = random.next() % 3 == 0 ? ".\(random.next() % 10)" : ""
      let zone = random.next() % 4 == 0 ? "+00:00" : "Z"
      let time = "\"2023-04-0\(day)T10:\(pad(second / 60)):\(pad(second % 60))\(fraction)\(zone)\""
      return backbaseRecord(
        id: "\"id-\(random.next() % UInt64(count))\"", amount: "\"\(random.next() % 100).\(random.next() % 10)\"",
        indicator: random.next() % 2 == 0 ? "\"CRDT\"" : "\"DBIT\"", time: time,
        state: random.next() % 4 == 0 ? "\"PENDING\"" : "\"COMPLETED\"",
        description: random.next() % 5 == 0 ? "" : "\"d\(random.next() % 7)\"")
    }
  }

  static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Folds `records` in chunks of `chunk`, dealt to `workers` tables in turn
  /// (sharing floors when `sharing`), and merges them: the report, and how
  /// many members the workers held before the merge.
  static func folded(_ records: [String], workers: Int, memberLimit: Int, chunk: Int, sharing: Bool) -> (
    report: GroupReport, held: Int
  ) {
    let tables = (0..<workers).map { _ in GroupTable(memberLimit: memberLimit) }
    if sharing, let floors = SharedMemberFloors(workers: workers, memberLimit: memberLimit) {
      for (worker, table) in tables.enumerated() { table.shareFloors(floors, worker: worker) }
    }
    var start = 0
    var worker = 0
    while start < records.count {
      let end = min(records.count, start + chunk)
      foldChunk(records[start..<end], into: tables[worker])
      start = end
      worker = (worker + 1) % workers
    }
    var held = 0
    for table in tables {
      table.stopSharingFloors()
      held += table.groups.map(\.members.count).reduce(0, +)
    }
    for table in tables.dropFirst() { #expect(tables[0].merge(table)) }
    tables[0].checkInvariants()
    return (tables[0].report(stats: RunStats()), held)
  }

  @Test("workers sharing floors report what one fold reports", arguments: [1, 2, 3, 4, 20])
  func sameReport(memberLimit: Int) {
    var heldWithout = 0
    var heldWith = 0
    for seed: UInt64 in [1, 2] {
      let records = Self.records(seed: seed, count: 3000)
      let expected = Self.folded(records, workers: 1, memberLimit: memberLimit, chunk: 3000, sharing: false).report
      for (workers, chunk) in [(2, 1), (2, 37), (2, 400), (3, 50), (4, 9)] {
        let without = Self.folded(records, workers: workers, memberLimit: memberLimit, chunk: chunk, sharing: false)
        let with = Self.folded(records, workers: workers, memberLimit: memberLimit, chunk: chunk, sharing: true)
        #expect(without.report == expected, "seed \(seed), \(workers) workers, chunks of \(chunk)")
        #expect(with.report == expected, "seed \(seed), \(workers) workers, chunks of \(chunk), floors shared")
        heldWithout += without.held
        heldWith += with.held
      }
    }
    #expect(heldWith < heldWithout, "the floors left no record out")
  }

  @Test("a record strictly older, in whole seconds, than what enough workers published is not kept")
  func leftOut() {
    // Four members: each worker publishes its second most recent, and both must be above a record.
    let first = GroupTable(memberLimit: 4)
    let second = GroupTable(memberLimit: 4)
    let floors = SharedMemberFloors(workers: 2, memberLimit: 4)
    #expect(floors?.rank == 2 && floors?.needed == 2)
    if let floors {
      first.shareFloors(floors, worker: 0)
      second.shareFloors(floors, worker: 1)
    }
    func record(_ id: String, _ time: String) -> String {
      backbaseRecord(id: "\"\(id)\"", time: "\"2023-04-01T10:00:\(time)Z\"")
    }
    Self.foldChunk(["10", "11", "12", "13"].map { record("a\($0)", $0) }[...], into: first)
    // Older than the first's floor (12), but the second has published none yet: kept.
    Self.foldChunk([record("b06", "06"), record("b05", "05")][...], into: second)
    // 04 is older than both floors (12 and 05): left out; 05.5 is not, in whole seconds.
    Self.foldChunk([record("b04", "04"), record("b05x", "05.5")][...], into: second)
    #expect(second.groups.map(\.members.count) == [3])
    // 03 is left out too; 05 ties with the second's floor: kept.
    Self.foldChunk([record("b03", "03"), record("b05y", "05")][...], into: second)
    let kept = second.groups[0].members.sorted().map { String(decoding: $0.id, as: UTF8.self) }
    #expect(kept == ["b06", "b05x", "b05", "b05y"])
    second.stopSharingFloors()
    first.stopSharingFloors()
    #expect(first.merge(second))
    let merged = first.groups[0].members.sorted().map { String(decoding: $0.id, as: UTF8.self) }
    #expect(merged == ["a13", "a12", "a11", "a10"])
  }

  @Test("per-account, retractable and one-worker tables share no floors")
  func notShared() {
    #expect(SharedMemberFloors(workers: 1, memberLimit: 20) == nil)
    #expect(SharedMemberFloors(workers: 2, memberLimit: 0) == nil)
    #expect(SharedMemberFloors(workers: 2, memberLimit: MemberHeap.ringLimit + 1) == nil)
    guard let floors = SharedMemberFloors(workers: 2, memberLimit: 20) else {
      Issue.record("two workers keeping 20 members share no floors")
      return
    }
    let perAccount = GroupTable(memberLimit: 20, perAccount: true)
    perAccount.shareFloors(floors, worker: 0)
    #expect(perAccount.sharedFloors == nil)
    let retractable = GroupTable(retractableReporting: 20)
    retractable.shareFloors(floors, worker: 1)
    #expect(retractable.sharedFloors == nil)
  }
}
