import Testing

@testable import TxFold

/// The Backbase seed's Examples 1–4, through the in-memory API and the streaming pipeline.
@Suite("Backbase seed examples")
struct SeedExampleTests {
  typealias Row = (id: String, date: String, indicator: String, state: String)

  static func transactions(_ rows: [Row]) -> [Transaction] {
    rows.map { row in
      Transaction(
        id: row.id, instant: TimestampParser.parse(row.date).unsafelyUnwrapped,
        amount: ExactDecimal(wide: 1000, scale: 2), currency: "EUR",
        creditDebitIndicator: CreditDebitIndicator(code: row.indicator).unsafelyUnwrapped, state: row.state,
        description: "ID \(row.id)")
    }
  }

  /// The report as the seed writes its outputs: `STATE: ids (date indicator)` per group.
  static func outline(_ report: GroupReport) -> [String] {
    report.sections.flatMap { section in
      section.groups.map { group in
        "\(section.state): " + group.transactions.map(\.id).joined(separator: " & ")
          + " (\(group.date) \(group.creditDebitIndicator))"
      }
    }
  }

  /// The same rows as a Backbase JSON-lines dump, grouped by the streaming pipeline.
  static func streamed(_ rows: [Row], threads: Int) throws -> GroupReport {
    let lines = rows.map { row in
      backbaseRecord(
        id: "\"\(row.id)\"", amount: "\"10.00\"", indicator: "\"\(row.indicator)\"", time: "\"\(row.date)\"",
        state: "\"\(row.state)\"", description: "\"ID \(row.id)\"")
    }
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = 64
    let source = MemorySource(Array((lines.joined(separator: "\n") + "\n").utf8))
    return try GroupPipeline(options: options).run(sources: [source])
  }

  static let examples: [(name: String, rows: [Row], expected: [String])] = [
    (
      "Example 1: single pending",
      [
        ("1", "2019-05-17", "CRDT", "PENDING"), ("2", "2019-05-16", "DBIT", "PENDING"),
        ("3", "2019-05-15", "CRDT", "PENDING"),
      ],
      ["PENDING: 1 (2019-05-17 CRDT)", "PENDING: 2 (2019-05-16 DBIT)", "PENDING: 3 (2019-05-15 CRDT)"]
    ),
    (
      "Example 2: grouped pending",
      [
        ("1", "2019-05-15", "CRDT", "PENDING"), ("2", "2019-05-15", "CRDT", "PENDING"),
        ("3", "2019-05-15", "DBIT", "PENDING"),
      ],
      ["PENDING: 1 & 2 (2019-05-15 CRDT)", "PENDING: 3 (2019-05-15 DBIT)"]
    ),
    (
      "Example 3: single completed",
      [
        ("1", "2019-05-17", "CRDT", "COMPLETED"), ("2", "2019-05-16", "CRDT", "COMPLETED"),
        ("3", "2019-05-15", "DBIT", "COMPLETED"),
      ],
      ["COMPLETED: 1 (2019-05-17 CRDT)", "COMPLETED: 2 (2019-05-16 CRDT)", "COMPLETED: 3 (2019-05-15 DBIT)"]
    ),
    (
      // The seed lists ID 7 above ID 3, against its own "most recent first" rule; Documentation/Formats.md ("`group` reports") follows the rule.
      "Example 4: grouped pending and completed (corrected order)",
      [
        ("1", "2019-05-17", "CRDT", "PENDING"), ("2", "2019-05-17", "CRDT", "PENDING"),
        ("3", "2019-05-18", "DBIT", "COMPLETED"), ("4", "2019-05-15", "CRDT", "COMPLETED"),
        ("5", "2019-05-15", "DBIT", "COMPLETED"), ("6", "2019-05-15", "DBIT", "COMPLETED"),
        ("7", "2019-05-17", "CRDT", "COMPLETED"),
      ],
      [
        "PENDING: 1 & 2 (2019-05-17 CRDT)", "COMPLETED: 3 (2019-05-18 DBIT)", "COMPLETED: 7 (2019-05-17 CRDT)",
        "COMPLETED: 4 (2019-05-15 CRDT)", "COMPLETED: 5 & 6 (2019-05-15 DBIT)",
      ]
    ),
  ]

  @Test("In memory", arguments: 0..<4)
  func inMemory(index: Int) throws {
    let example = Self.examples[index]
    let report = try TransactionGrouping.group(Self.transactions(example.rows))
    #expect(Self.outline(report) == example.expected, "\(example.name)")
  }

  @Test("Streamed, on one and on two threads", arguments: 0..<4, [1, 2])
  func streamed(index: Int, threads: Int) throws {
    let example = Self.examples[index]
    let report = try Self.streamed(example.rows, threads: threads)
    #expect(Self.outline(report) == example.expected, "\(example.name)")
    #expect(report.stats.lines == example.rows.count)
    #expect(report.stats.accepted == example.rows.count)
    let group = try #require(report.sections.first?.groups.first)
    #expect(
      group.totals == [
        CurrencyTotal(
          currency: "EUR", amount: ExactDecimal(wide: WideInt(group.count) * 1000, scale: 2), count: group.count)
      ])
  }

  @Test("Sections are PENDING, COMPLETED, then other states alphabetically; empty states have none")
  func sectionOrder() throws {
    let report = try TransactionGrouping.group(
      Self.transactions([
        ("1", "2019-05-17", "CRDT", "REVERSED"), ("2", "2019-05-17", "CRDT", "COMPLETED"),
        ("3", "2019-05-17", "CRDT", "BOOKED"), ("4", "2019-05-17", "CRDT", "PENDING"),
      ]))
    #expect(report.sections.map(\.state) == ["PENDING", "COMPLETED", "BOOKED", "REVERSED"])
    #expect(try TransactionGrouping.group([]).sections.isEmpty)
  }

  @Test("Same day: the group with the later latest instant first, then CRDT before DBIT")
  func tieBreaks() throws {
    let report = try TransactionGrouping.group(
      Self.transactions([
        ("1", "2019-05-17T08:00:00", "CRDT", "PENDING"), ("2", "2019-05-17T09:00:00", "DBIT", "PENDING"),
        ("3", "2019-05-16T08:00:00", "DBIT", "PENDING"), ("4", "2019-05-16T08:00:00", "CRDT", "PENDING"),
      ]))
    #expect(
      Self.outline(report) == [
        "PENDING: 2 (2019-05-17 DBIT)", "PENDING: 1 (2019-05-17 CRDT)", "PENDING: 4 (2019-05-16 CRDT)",
        "PENDING: 3 (2019-05-16 DBIT)",
      ])
  }

  @Test("Members: most recent first, ties by id byte-wise; count and totals cover all, members only N")
  func memberLimit() throws {
    let rows: [Row] = [
      ("b", "2019-05-17T10:00:00", "DBIT", "COMPLETED"), ("a", "2019-05-17T10:00:00", "DBIT", "COMPLETED"),
      ("c", "2019-05-17T11:00:00", "DBIT", "COMPLETED"), ("d", "2019-05-17T09:00:00", "DBIT", "COMPLETED"),
      ("B", "2019-05-17T10:00:00", "DBIT", "COMPLETED"),
    ]
    let all = try TransactionGrouping.group(Self.transactions(rows))
    #expect(all.sections[0].groups[0].transactions.map(\.id) == ["c", "B", "a", "b", "d"])
    let two = try TransactionGrouping.group(Self.transactions(rows), memberLimit: 2)
    let group = two.sections[0].groups[0]
    #expect(group.transactions.map(\.id) == ["c", "B"])
    #expect(group.count == 5)
    #expect(group.totals[0].amount.description == "50.00")
    #expect(group.latest.description == "2019-05-17T11:00:00")
    let none = try TransactionGrouping.group(Self.transactions(rows), memberLimit: 0)
    #expect(none.sections[0].groups[0].transactions.isEmpty)
    #expect(none.sections[0].groups[0].count == 5)
  }

  @Test("Dedupe: a PENDING record re-exported as COMPLETED counts once, in its final state")
  func dedupe() throws {
    let rows: [Row] = [
      ("1", "2019-05-17T10:00:00", "CRDT", "PENDING"), ("1", "2019-05-18T10:00:00", "CRDT", "COMPLETED"),
      ("2", "2019-05-17T10:00:00", "CRDT", "PENDING"), ("2", "2019-05-17T10:00:00", "CRDT", "COMPLETED"),
    ]
    let report = try TransactionGrouping.group(Self.transactions(rows), dedupe: true)
    #expect(Self.outline(report) == ["COMPLETED: 1 (2019-05-18 CRDT)", "COMPLETED: 2 (2019-05-17 CRDT)"])
    #expect(report.stats.duplicates == 2)
    var options = GroupOptions()
    options.dedupe = true
    for threads in [1, 2] {
      options.threads = threads
      options.read.limits.chunkSize = 50
      let lines = rows.map {
        backbaseRecord(
          id: "\"\($0.id)\"", indicator: "\"\($0.indicator)\"", time: "\"\($0.date)\"", state: "\"\($0.state)\"")
      }
      let streamed = try GroupPipeline(options: options).run(sources: [
        MemorySource(Array(lines.joined(separator: "\n").utf8))
      ])
      #expect(Self.outline(streamed) == Self.outline(report))
      #expect(streamed.stats.duplicates == 2)
      #expect(streamed.stats.accepted == 4)
    }
  }
}

/// A byte source over memory that hands out at most `step` bytes per read,
/// to exercise every chunk boundary.
final class MemorySource: ByteSource {
  let bytes: [UInt8]
  let step: Int
  var position = 0
  let name: String
  init(_ bytes: [UInt8], step: Int = .max, name: String = "memory") {
    self.bytes = bytes
    self.step = max(1, step)
    self.name = name
  }
  var storedBytesRead: Int64 { Int64(position) }
  var storedSize: Int64? { Int64(bytes.count) }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let count = min(buffer.count, step, bytes.count - position)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { source in
      buffer.baseAddress.unsafelyUnwrapped.copyMemory(
        from: source.baseAddress.unsafelyUnwrapped + position, byteCount: count)
    }
    position += count
    return count
  }
}
