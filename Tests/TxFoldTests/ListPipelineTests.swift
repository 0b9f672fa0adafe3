import Testing

@testable import TxFold
@testable import TxFoldGen

/// The streaming `list` and `summary` jobs against the in-memory query and
/// summary on the same transactions: a tiny memory budget (many runs,
/// multi-pass merges) must not change a byte.
@Suite("List and summary pipelines")
struct ListPipelineTests {
  /// A generated dump plus re-exports of every seventh record (same id and
  /// time, state flipped), so dedupe has work.
  static let dump: [UInt8] = {
    var bytes: [UInt8] = []
    TransactionGenerator(options: GeneratorOptions(count: 1500, seed: 77)).generate { (chunk: inout [UInt8]) in
      bytes.append(contentsOf: chunk)
      chunk.removeAll()
    }
    let lines = bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    var copies: [String] = []
    for (index, line) in lines.enumerated() where index % 7 == 3 {
      copies.append(
        line.contains(#""state":"PENDING""#)
          ? line.replacingOccurrences(#""state":"PENDING""#, with: #""state":"COMPLETED""#)
          : line.replacingOccurrences(#""state":"COMPLETED""#, with: #""state":"PENDING""#))
    }
    return Array((lines + copies).joined(separator: "\n").utf8)
  }()

  static func transactions() throws -> [Transaction] {
    var all: [Transaction] = []
    _ = try TransactionReader().read(sources: [MemorySource(dump)]) { (transaction, _) throws(Never) in
      all.append(transaction)
    }
    return all
  }

  static func filters() throws -> [(String, TransactionFilter)] {
    let all = try transactions()
    let categories = Array(Set(all.compactMap(\.category))).sorted().prefix(3)
    let amsterdam = try #require(ZoneResolver(identifier: "Europe/Amsterdam"))
    let someIDs = all.enumerated().filter { $0.offset % 5 == 0 }.map(\.element.id)
    return [
      ("everything", TransactionFilter()),
      ("categories", TransactionFilter(categories: Array(categories) + ["(none)"])),
      ("pending", TransactionFilter(states: ["pending"])),
      (
        "range in a zone",
        TransactionFilter(
          since: CalendarDay(year: 2023, month: 6, day: 1), until: CalendarDay(year: 2024, month: 2, day: 29),
          zone: amsterdam)
      ),
      ("pinned", TransactionFilter(onlyIDs: someIDs, excludedIDs: Array(someIDs.prefix(20)))),
    ]
  }

  @Test("list: the streaming job equals the in-memory query, for every filter, dedupe and page")
  func listOracle() throws {
    let all = try Self.transactions()
    let pages = [
      PageRequest(), PageRequest(offset: 0, limit: 25), PageRequest(offset: 400, limit: 50), PageRequest(offset: 5000),
    ]
    for (name, filter) in try Self.filters() {
      for dedupe in [false, true] {
        for page in pages {
          let expected = TransactionQuery(filter: filter, dedupe: dedupe, page: page).run(all)
          var options = ListOptions()
          options.filter = filter
          options.dedupe = dedupe
          options.page = page
          options.memoryLimit = 8_000
          options.maxFanIn = 4
          let list = try ListPipeline(options: options).run(sources: [MemorySource(Self.dump)])
          var streamed: [Transaction] = []
          while let transaction = try list.next() { streamed.append(transaction) }
          let label = "\(name), dedupe \(dedupe), \(page)"
          #expect(streamed == expected.transactions, "\(label)")
          #expect(list.matched == expected.matched, "\(label)")
          #expect(list.stats.duplicates == expected.duplicates, "\(label)")
          #expect(list.stats.accepted == all.count, "\(label)")
        }
      }
    }
  }

  @Test("summary: the streaming job equals the in-memory summary, for every dimension, filter and dedupe")
  func summaryOracle() throws {
    let all = try Self.transactions()
    for (name, filter) in try Self.filters() {
      for dedupe in [false, true] {
        let chosen = TransactionQuery(filter: filter, dedupe: dedupe).run(all).transactions
        for dimension in SummaryDimension.allCases {
          var options = SummaryOptions()
          options.filter = filter
          options.dedupe = dedupe
          options.dimension = dimension
          let streamed = try SummaryPipeline(options: options).run(sources: [MemorySource(Self.dump)])
          let expected = try TransactionSummary.summarize(chosen, by: dimension, zone: filter.zone)
          let label = "\(name), dedupe \(dedupe), \(dimension)"
          #expect(streamed.entries == expected.entries, "\(label)")
          #expect(streamed.totals == expected.totals, "\(label)")
          #expect(streamed.stats.accepted == all.count, "\(label)")
        }
      }
    }
  }

  @Test("Rejections reach the list pipeline's callback in input order")
  func rejections() throws {
    let pipeline = ListPipeline(options: ListOptions())
    var lines: [Int] = []
    pipeline.onRejection = { lines.append($0.line) }
    let list = try pipeline.run(paths: [Fixtures.path("corpus-one-malformed.jsonl")])
    #expect(lines == [5])
    #expect(list.stats.rejected == 1)
    #expect(list.matched == 8)
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
