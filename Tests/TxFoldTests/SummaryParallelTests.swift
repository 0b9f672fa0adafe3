import Testing

@testable import TxFold
@testable import TxFoldGen

/// The parallel `summary` path (workers summing chunks from the bytes, merged
/// in input order) against the one-by-one path it replaced (`runOneByOne`,
/// kept as the oracle): the same report, stats, rejections in the same order
/// and the same errors, for every dimension, filter, thread count and chunk size.
@Suite("summary on every core")
struct SummaryParallelTests {
  /// A generated dump with damage every so often: broken JSON, blank lines, a
  /// missing timestamp, a category written as a number, escaped and empty categories.
  static let dump: [UInt8] = {
    var bytes: [UInt8] = []
    TransactionGenerator(options: GeneratorOptions(count: 2500, seed: 19)).generate { (chunk: inout [UInt8]) in
      bytes.append(contentsOf: chunk)
      chunk.removeAll()
    }
    var lines = bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    for index in lines.indices {
      switch index % 97 {
      case 5: lines[index] = #"{"id": "broken", "#
      case 17: lines[index] = ""
      case 29: lines[index] = lines[index].replacing(#""creationTime""#, with: #""createdAt""#)
      case 41: lines[index] = lines[index].replacing(#""category":""#, with: #""category":"Caf\u00e9 "#)
      case 53: lines[index] = lines[index].replacing(#""category":""#, with: #""category":12,"x":""#)
      case 67: lines[index] = lines[index].replacing(#""category":""#, with: #""category":"","y":""#)
      case 79: lines[index] = lines[index].replacing(#""state":""#, with: #""state":"pen"#)
      default: break
      }
    }
    return Array(lines.joined(separator: "\n").utf8)
  }()

  /// Every transaction of `dump`, for the filters' ids and categories.
  static func transactions(_ dump: [UInt8]) throws -> [Transaction] {
    var all: [Transaction] = []
    _ = try TransactionReader().read(sources: [MemorySource(dump)]) { (transaction, _) throws(Never) in
      all.append(transaction)
    }
    return all
  }

  static func filters() throws -> [(String, TransactionFilter)] {
    let all = try transactions(dump)
    let categories = Array(Set(all.compactMap(\.category))).sorted().prefix(3)
    let amsterdam = try #require(ZoneResolver(identifier: "Europe/Amsterdam"))
    let tokyo = try #require(ZoneResolver(identifier: "Asia/Tokyo"))
    let someIDs = all.enumerated().filter { $0.offset % 5 == 0 }.map(\.element.id)
    return [
      ("everything", TransactionFilter()),
      ("in Tokyo", TransactionFilter(zone: tokyo)),
      ("categories", TransactionFilter(categories: Array(categories) + ["(none)"])),
      ("pending, eur", TransactionFilter(states: ["pending"], currencies: ["eur"])),
      (
        "range in a zone",
        TransactionFilter(
          since: CalendarDay(year: 2023, month: 6, day: 1), until: CalendarDay(year: 2024, month: 2, day: 29),
          zone: amsterdam)
      ),
      ("pinned", TransactionFilter(onlyIDs: someIDs, excludedIDs: Array(someIDs.prefix(20)))),
    ]
  }

  /// (threads, chunk size): one thread inline, and workers with chunks of a few records or of one.
  static let layouts = [(1, 1 << 20), (2, 700), (4, 1)]

  /// What a run gave: its report or its error, and the rejections it reported, in order.
  struct Outcome: Equatable {
    var entries: [SummaryEntry] = []
    var totals: [SummaryCurrencyTotals] = []
    var counts: [Int] = []
    var byReason: [RejectReason: Int] = [:]
    var schema = ""
    var hints: [String] = []
    var bytes: [Int64] = []
    var error: String?
    var rejections: [String] = []
  }

  static func outcome(
    _ options: SummaryOptions, dump: [UInt8], parallel: Bool
  ) -> Outcome {
    var outcome = Outcome()
    let pipeline = SummaryPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    do throws(PipelineError) {
      let report =
        parallel
        ? try pipeline.run(sources: [MemorySource(dump)]) : try pipeline.runOneByOne(sources: [MemorySource(dump)])
      outcome.entries = report.entries
      outcome.totals = report.totals
      let stats = report.stats
      outcome.counts = [stats.lines, stats.accepted, stats.rejected, stats.selected ?? -1, stats.duplicates]
      outcome.byReason = stats.rejectedByReason
      outcome.schema = stats.schema
      outcome.hints = stats.hints
      outcome.bytes = [stats.bytesRead, stats.bytesDecoded]
    } catch {
      outcome.error = "\(error)"
    }
    return outcome
  }

  @Test("equals the one-by-one path for every dimension, filter, thread count and chunk size")
  func equivalence() throws {
    for (name, filter) in try Self.filters() {
      for dimension in SummaryDimension.allCases {
        var options = SummaryOptions()
        options.filter = filter
        options.dimension = dimension
        let expected = Self.outcome(options, dump: Self.dump, parallel: false)
        #expect(expected.error == nil)
        #expect(!expected.rejections.isEmpty)
        for (threads, chunkSize) in Self.layouts {
          options.threads = threads
          options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
          let label = "\(name), \(dimension), \(threads) threads, chunks of \(chunkSize)"
          #expect(Self.outcome(options, dump: Self.dump, parallel: true) == expected, "\(label)")
        }
      }
    }
  }

  @Test("--strict and --max-rejects stop at the same rejection on every thread count")
  func stops() throws {
    for strict in [true, false] {
      var options = SummaryOptions()
      options.read.strict = strict
      options.read.maxRejects = strict ? nil : 30
      let expected = Self.outcome(options, dump: Self.dump, parallel: false)
      #expect(expected.error != nil)
      for (threads, chunkSize) in Self.layouts {
        options.threads = threads
        options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
        #expect(Self.outcome(options, dump: Self.dump, parallel: true) == expected, "\(threads), \(chunkSize)")
      }
    }
  }

  /// `dump` with the amounts of the records at `places` (by line) set to `amount` in EUR,
  /// in `category`, credit or debit.
  static func withHugeAmounts(_ places: [(line: Int, category: String, amount: String, credit: Bool)]) -> [UInt8] {
    var lines = dump.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    for place in places {
      lines[place.line] =
        #"{"id":"huge\#(place.line)","category":"\#(place.category)","transactionAmountCurrency":{"amount":"\#(place.amount)","currencyCode":"EUR"},"creditDebitIndicator":"\#(place.credit ? "CRDT" : "DBIT")","creationTime":"2024-01-0\#(place.line % 9 + 1)T10:00:00Z","state":"COMPLETED"}"#
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  @Test("An overflow stops at the same transaction, naming the same key, after the same rejections")
  func overflow() throws {
    let nines = String(repeating: "9", count: 38)
    let cases: [(String, [(line: Int, category: String, amount: String, credit: Bool)])] = [
      ("one key", [(300, "Rent", nines, false), (1900, "Rent", nines, false)]),
      ("two keys, so the total of all", [(400, "A", nines, false), (2100, "B", nines, false)]),
      (
        "a scale the sum cannot take",
        [(10, "X", String(nines.dropFirst()), true), (2000, "Y", "0.000000000000000001", true)]
      ),
      (
        "two in one chunk",
        [(1200, "P", nines, false), (1201, "Q", nines, true), (1202, "Q", nines, true), (1203, "P", nines, false)]
      ),
    ]
    for (name, places) in cases {
      let dump = Self.withHugeAmounts(places)
      for dimension in [SummaryDimension.category, .month, .state] {
        for filter in [TransactionFilter(), TransactionFilter(categories: ["Rent", "P", "A"])] {
          var options = SummaryOptions()
          options.dimension = dimension
          options.filter = filter
          let expected = Self.outcome(options, dump: dump, parallel: false)
          for (threads, chunkSize) in Self.layouts {
            options.threads = threads
            options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
            #expect(
              Self.outcome(options, dump: dump, parallel: true) == expected,
              "\(name), \(dimension), \(filter.keepsEverything), \(threads), \(chunkSize)")
          }
        }
      }
    }
    // The cases do overflow where they should: only Rent's transactions summed, Rent's total
    // is the first to overflow; with every transaction, the total of all EUR debits is.
    var options = SummaryOptions()
    options.threads = 4
    options.filter = TransactionFilter(categories: ["Rent"])
    let one = Self.outcome(options, dump: Self.withHugeAmounts(cases[0].1), parallel: true)
    #expect(one.error == SumOverflow(currency: "EUR", key: "Rent").found(in: .reading("memory")).description)
    #expect(one.rejections.count > 3)
    options.filter = TransactionFilter()
    let two = Self.outcome(options, dump: Self.withHugeAmounts(cases[1].1), parallel: true)
    #expect(two.error == SumOverflow(currency: "EUR").found(in: .reading("memory")).description)
  }

  @Test("Records without ids are pinned by position on every thread count (positions counted only then)")
  func positionsAsIDs() throws {
    // Swile's records have no id: a record's position in its input is its id. Blank lines and a
    // broken record take no position from the records after them differently per path.
    var lines: [String] = []
    for index in 0..<60 {
      switch index % 11 {
      case 4: lines.append("")
      case 9: lines.append(#"{"name": "broken", "#)
      default:
        lines.append(
          #"{"name":"N\#(index)","type":"\#(["food", "rent", "fun"][index % 3])","date":"2024-01-0\#(index % 9 + 1)T10:00:00Z","amount":{"value":-\#(index).5,"currency":{"iso_3":"\#(index % 4 == 0 ? "CHF" : "EUR")"}}}"#
        )
      }
    }
    let dump = Array(lines.joined(separator: "\n").utf8)
    let pinned = ["1", "2", "3", "8", "13", "21", "34", "55"]
    for filter in [TransactionFilter(onlyIDs: pinned), TransactionFilter(excludedIDs: pinned), TransactionFilter()] {
      var options = SummaryOptions()
      options.read.schema = .swile
      options.filter = filter
      let expected = Self.outcome(options, dump: dump, parallel: false)
      #expect(expected.error == nil)
      // The oracle: transactions read one by one (each numbered by `TransactionReader`), filtered.
      var read = ReadOptions()
      read.schema = .swile
      var kept = 0
      _ = try TransactionReader(options: read).read(sources: [MemorySource(dump)]) { (transaction, _) throws(Never) in
        if filter.matches(transaction) { kept += 1 }
      }
      #expect(expected.totals.reduce(0) { $0 + $1.count } == kept)
      #expect(kept == (filter.onlyIDs != nil ? 7 : filter.readsIDs ? 42 : 49))
      for (threads, chunkSize) in Self.layouts {
        options.threads = threads
        options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
        #expect(Self.outcome(options, dump: dump, parallel: true) == expected, "\(threads), \(chunkSize)")
      }
    }
  }

  @Test("Currencies equal as Strings share a cell, which shows the currency as its first transaction wrote it")
  func currencyNames() throws {
    // "ÉUR" written decomposed (E + U+0301) and precomposed (U+00C9): equal as `String`s, not as bytes.
    // (Upper-case already: codes are upper-cased, ASCII letters only, before they are compared.)
    let decomposed = "E\u{301}UR"
    let precomposed = "\u{C9}UR"
    func record(_ category: String, _ currency: String, _ amount: Int) -> String {
      #"{"id":"\#(category)\#(amount)","category":"\#(category)","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"\#(currency)"},"creditDebitIndicator":"CRDT","creationTime":"2024-01-02T10:00:00Z","state":"COMPLETED"}"#
    }
    let dump = Array(
      [record("A", decomposed, 1), record("B", precomposed, 2), record("B", decomposed, 3)].joined(separator: "\n")
        .utf8)
    for (threads, parallel) in [(1, false), (1, true), (2, true)] {
      var options = SummaryOptions()
      options.threads = threads
      let outcome = Self.outcome(options, dump: dump, parallel: parallel)
      let cells = outcome.entries.map { entry in entry.currencies.map { (Array($0.currency.utf8), $0.count) } }
      let keys = outcome.entries.map { $0.key.text ?? "" }
      #expect(keys == ["A", "B"], "\(threads) \(parallel)")
      #expect(cells.count == 2)
      guard cells.count == 2 else { continue }
      #expect(cells[0].map(\.0) == [Array(decomposed.utf8)] && cells[0].map(\.1) == [1])
      #expect(cells[1].map(\.0) == [Array(precomposed.utf8)] && cells[1].map(\.1) == [2])
      #expect(outcome.totals.map { Array($0.currency.utf8) } == [Array(decomposed.utf8)])
      #expect(outcome.totals.map(\.count) == [3])
    }
  }

  @Test("A zone set on read alone (the run's one zone) sums in parallel as one by one, in that zone")
  func readZone() throws {
    var options = SummaryOptions()
    options.dimension = .day
    options.read.zone = try #require(ZoneResolver(identifier: "Asia/Tokyo"))
    #expect(options.filter.zone.zone == options.read.zone.zone)
    let expected = Self.outcome(options, dump: Self.dump, parallel: false)
    options.threads = 3
    #expect(Self.outcome(options, dump: Self.dump, parallel: true) == expected)
    options.read.zone = .asWritten
    #expect(Self.outcome(options, dump: Self.dump, parallel: true).entries != expected.entries)
  }
}
