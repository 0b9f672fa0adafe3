import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// The external sort against an in-memory sort on seeded random data, the
/// spill format's round trip, and the temporary files' clean-up.
@Suite("External sort")
struct ExternalSorterTests {
  /// Random transactions with many ties (few instants, few ids), every
  /// optional field present or not, non-ASCII text, extreme decimals.
  static func randomTransactions(seed: UInt64, count: Int) -> [Transaction] {
    var random = SplitMix64(seed: seed)
    let stamps = [
      "2019-05-17T10:00:00Z", "2019-05-17T12:00:00+02:00", "2019-05-17T10:00:00", "2019-05-16",
      "2019-05-16T23:59:59.999999999-01:30", "2019-05-15T08:00:00.5+0200", "1900-01-01", "2099-12-31T23:59:59Z",
    ].compactMap { TimestampParser.parse($0) }
    let texts = [
      "Salary", "Café \"De Kas\" \\ Amsterdam", "Zürich 🚆", "", "東京", "tab\there", String(repeating: "x", count: 40),
    ]
    func text() -> String { texts[random.next(below: texts.count)] }
    return (0..<count).map { _ in
      let significand: WideInt =
        random.chance(percent: 5)
        ? (random.chance(percent: 50) ? WideInt.max : WideInt.min)
        : WideInt(Int64(bitPattern: random.next()) % 1_000_000_000)
      let amount = ExactDecimal(wide: significand, scale: UInt8(random.next(below: 19)))
      return Transaction(
        id: ["a", "b", "B", "é", "e\u{301}", "10", "9"][random.next(below: 7)] + String(random.next(below: 20)),
        instant: stamps[random.next(below: stamps.count)], amount: amount,
        currency: ["EUR", "USD", "PBP"][random.next(below: 3)],
        creditDebitIndicator: random.chance(percent: 50) ? .credit : .debit,
        state: ["COMPLETED", "PENDING", "REVERSED"][random.next(below: 3)],
        description: random.chance(percent: 80) ? text() : nil, category: random.chance(percent: 70) ? text() : nil,
        counterparty: random.chance(percent: 50) ? text() : nil,
        fee: random.chance(percent: 30)
          ? ExactDecimal(wide: WideInt(random.next(below: 500)) - 250, scale: 2) : nil)
    }
  }

  static func drain(_ sorted: SortedEntries) throws -> [SortEntry] {
    var entries: [SortEntry] = []
    while let entry = try sorted.next() { entries.append(entry) }
    return entries
  }

  static func temporaryParent() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-sort-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  @Test(
    "Spilled runs merge to exactly the in-memory order",
    arguments: [(UInt64(1), 500, 2_000, 64), (2, 800, 700, 2), (3, 300, 1, 3), (4, 1000, 40_000, 8), (5, 0, 1, 2)])
  func oracle(seed: UInt64, count: Int, memoryLimit: Int, fanIn: Int) throws {
    let transactions = Self.randomTransactions(seed: seed, count: count)
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let sorter = ExternalSorter(memoryLimit: memoryLimit, temporaryParent: parent, maxFanIn: fanIn)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let merged = try Self.drain(try sorter.finish())
    let expected = TransactionOrder.sorted(transactions)
    #expect(merged.map(\.transaction) == expected)
    #expect(merged.count == count)
    if count > 10 && memoryLimit < 5_000 { #expect(sorter.spilledRuns > 1) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
  }

  @Test(
    "Accounts that differ byte-wise sort apart, canonically equivalent or not, in memory and spilled",
    arguments: [1 << 20, 2_000])
  func accountsByteWise(memoryLimit: Int) throws {
    let accounts = ["é", "e\u{301}", "e", "f"]
    let transactions = Self.randomTransactions(seed: 13, count: 400).enumerated().map { index, transaction in
      var transaction = transaction
      transaction.account = accounts[index % accounts.count]
      return transaction
    }
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let sorter = ExternalSorter(memoryLimit: memoryLimit, temporaryParent: parent, maxFanIn: 3)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let merged = try Self.drain(try sorter.finish()).map { Array(($0.transaction.account ?? "").utf8) }
    // Each account's entries together, in byte-wise order of the accounts.
    let runs = merged.indices.filter { $0 == 0 || merged[$0] != merged[$0 - 1] }.map { merged[$0] }
    #expect(
      runs.map { String(decoding: $0, as: UTF8.self).unicodeScalars.map(\.value) } == [
        [0x65], [0x65, 0x301], [0x66], [0xE9],
      ])
  }

  @Test("keepFirst gives the first entries of the full order; small ones never spill", arguments: [1, 7, 100])
  func keepFirst(keep: Int) throws {
    let transactions = Self.randomTransactions(seed: 11, count: 600)
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let sorter = ExternalSorter(memoryLimit: 20_000, temporaryParent: parent, keepFirst: keep)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let merged = try Self.drain(try sorter.finish())
    #expect(merged.map(\.transaction) == Array(TransactionOrder.sorted(transactions).prefix(keep)))
    // 100 entries take more than half the budget, so those runs spill (cut to 100 each).
    #expect((sorter.spilledRuns == 0) == (keep < 100))
  }

  @Test("A small page of a large input is cut as it goes, whatever the budget")
  func keepFirstByCount() throws {
    let transactions = Self.randomTransactions(seed: 12, count: 10_000)
    let sorter = ExternalSorter(memoryLimit: 1 << 40, keepFirst: 5)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let merged = try Self.drain(try sorter.finish())
    #expect(merged.map(\.transaction) == Array(TransactionOrder.sorted(transactions).prefix(5)))
    #expect(merged.map(\.position) == Array(TransactionOrder.sortedPositions(transactions).prefix(5)))
  }

  @Test("Input that fits in memory never touches the disk")
  func inMemory() throws {
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let sorter = ExternalSorter(memoryLimit: 1 << 30, temporaryParent: parent)
    sorter.onTemporaryDirectory = { _ in Issue.record("a directory was created") }
    for (position, transaction) in Self.randomTransactions(seed: 5, count: 50).enumerated() {
      try sorter.add(transaction, position: position)
    }
    #expect(try Self.drain(try sorter.finish()).count == 50)
    #expect(sorter.spilledRuns == 0)
  }

  @Test("The temporary directory is reported, then removed when the output is closed early or released")
  func cleanUp() throws {
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    var reported: [String] = []
    do {
      let sorter = ExternalSorter(memoryLimit: 1, temporaryParent: parent, maxFanIn: 4)
      sorter.onTemporaryDirectory = { reported.append($0) }
      for (position, transaction) in Self.randomTransactions(seed: 8, count: 30).enumerated() {
        try sorter.add(transaction, position: position)
      }
      let sorted = try sorter.finish()
      #expect(try sorted.next() != nil)
      #expect(reported.count == 1)
      // Run files have no names: the directory is empty while they are in use.
      #expect(try FileManager.default.contentsOfDirectory(atPath: reported[0]).isEmpty)
      sorted.close()
      #expect(try sorted.next() == nil)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
    do {
      let sorter = ExternalSorter(memoryLimit: 1, temporaryParent: parent)
      for (position, transaction) in Self.randomTransactions(seed: 9, count: 10).enumerated() {
        try sorter.add(transaction, position: position)
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
  }

  @Test("A spill directory that cannot be created is a typed error")
  func cannotCreate() throws {
    let sorter = ExternalSorter(memoryLimit: 1, temporaryParent: "/no/such/directory")
    let transaction = try #require(Self.randomTransactions(seed: 1, count: 1).first)
    #expect {
      try sorter.add(transaction, position: 0)
    } throws: { error in
      guard case .cannotCreate(let path, _) = error as? SpillError else { return false }
      return path == "/no/such/directory"
    }
  }

  @Test("The spill format round-trips every transaction exactly")
  func roundTrip() throws {
    let transactions = Self.randomTransactions(seed: 21, count: 400)
    var bytes = SpillRecordFormat.header
    for (position, transaction) in transactions.enumerated() {
      SpillRecordFormat.append(transaction, position: position * 1_000_003, to: &bytes)
    }
    var offset = SpillRecordFormat.header.count
    var read: [Transaction] = []
    try bytes.withUnsafeBufferPointer { buffer in
      while offset < buffer.count {
        let record = try #require(try SpillRecordFormat.read(buffer, at: offset))
        #expect(record.position == read.count * 1_000_003)
        read.append(record.transaction)
        offset = record.next
      }
    }
    #expect(read == transactions)
    // Timestamps print as written.
    #expect(read.map(\.instant.description) == transactions.map(\.instant.description))
  }

  @Test("A cut or damaged record is never misread")
  func damage() throws {
    let transaction = try TransactionSamples.make(
      "4734", "2018-07-11T22:49:24.000Z", "-193.38", description: "Lorem", category: "Food", fee: "-3.18")
    var record: [UInt8] = []
    SpillRecordFormat.append(transaction, position: 7, to: &record)
    // Every cut asks for more bytes.
    for cut in 0..<record.count {
      let prefix = Array(record[..<cut])
      #expect(try prefix.withUnsafeBufferPointer { try SpillRecordFormat.read($0, at: 0) } == nil, "cut \(cut)")
    }
    // A flipped indicator or flags byte, or a length that overruns the body, is reported.
    for (offset, value) in [(1 + 1 + 24, UInt8(7)), (1 + 1 + 24 + 1, UInt8(0xF0)), (1 + 1 + 24 + 2, UInt8(0x7F))] {
      var damaged = record
      damaged[offset] = value
      #expect(throws: SpillRecordFormat.DecodeError.self) {
        try damaged.withUnsafeBufferPointer { try SpillRecordFormat.read($0, at: 0) }
      }
    }
  }

  @Test("Decimal text parses the whole 128-bit range and nothing beyond")
  func int128Text() {
    func parse(_ text: String) -> WideInt? {
      Array(text.utf8).withUnsafeBufferPointer { SpillRecordFormat.parseWideInt($0) }
    }
    // 2^127 - 1 and -2^127, written out so the test needs no Int128 (macOS 15 / iOS 18).
    #expect(parse("170141183460469231731687303715884105727") == WideInt.max)
    #expect(parse("-170141183460469231731687303715884105728") == WideInt.min)
    #expect(parse("170141183460469231731687303715884105728") == nil)
    #expect(parse("-") == nil)
    #expect(parse("") == nil)
    #expect(parse("12a") == nil)
    #expect(parse("-0") == 0)
  }
}
