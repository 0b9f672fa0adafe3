import Foundation
import Testing

@testable import TxFold

/// The parallel `list` path (workers render rows into entries, sort and spill
/// them, one merge) against the `Transaction` path (`ListPipeline.run` and
/// `ListRenderer.render`, kept as the oracle): the same bytes, stats, matched
/// count, rejections and errors for every format, filter, page, thread count,
/// chunk size and memory limit, from one entry per run to no spill at all.
@Suite("list on every core")
struct ListParallelTests {
  /// What a run gave: its output or its error, its accounting and its rejections, in order.
  struct Outcome: Equatable {
    var bytes: [UInt8] = []
    var counts: [Int] = []
    var byReason: [RejectReason: Int] = [:]
    var schema = ""
    var hints: [String] = []
    var error: String?
    var rejections: [String] = []
  }

  static func record(_ outcome: inout Outcome, _ stats: RunStats, matched: Int) {
    outcome.counts = [
      stats.lines, stats.accepted, stats.rejected, stats.selected ?? -1, stats.duplicates, matched,
      Int(stats.bytesRead), Int(stats.bytesDecoded),
    ]
    outcome.byReason = stats.rejectedByReason
    outcome.schema = stats.schema
    outcome.hints = stats.hints
  }

  /// The oracle: the `Transaction` path, rendered by `ListRenderer.render`.
  static func oracle(_ options: ListOptions, format: ReportFormat, dump: [UInt8]) -> Outcome {
    var outcome = Outcome()
    let pipeline = ListPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    do throws(PipelineError) {
      let list = try pipeline.run(sources: [MemorySource(dump)])
      defer { list.close() }
      record(&outcome, list.stats, matched: list.matched)
      let context = ListContext(stats: list.stats, matched: list.matched, page: list.page, zone: options.filter.zone)
      var bytes: [UInt8] = []
      do throws(ListRenderer.Failure<PipelineError, Never>) {
        try ListRenderer.render(context: context, format: format, next: list.next) { (chunk: inout [UInt8]) in
          bytes.append(contentsOf: chunk)
          chunk.removeAll(keepingCapacity: true)
        }
        outcome.bytes = bytes
      } catch {
        switch error {
        case .source(let error): outcome.error = "\(error)"
        case .sumOverflow(let error): outcome.error = "\(PipelineError.totalOverflow(error))"
        }
      }
    } catch {
      outcome.error = "\(error)"
    }
    return outcome
  }

  /// The parallel path, through `ListRows.render` as the command-line tool uses it.
  static func parallel(
    _ options: ListOptions, format: ReportFormat, dump: [UInt8], spilled: inout Int
  ) -> Outcome {
    var outcome = Outcome()
    let pipeline = ListPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    var inputs = RunInputs(sources: [MemorySource(dump)])
    do throws(PipelineError) {
      #expect(pipeline.rendersInParallel(format))
      let rows = try pipeline.runRendered(
        names: inputs.names, style: format == .csv ? .csv : .json, zone: options.filter.zone,
        next: { () throws(PipelineError) in try inputs.next() })
      defer { rows.close() }
      spilled = rows.spilledRuns
      record(&outcome, rows.stats, matched: rows.matched)
      let context = ListContext(stats: rows.stats, matched: rows.matched, page: rows.page, zone: options.filter.zone)
      var bytes: [UInt8] = []
      do throws(ListRenderer.Failure<PipelineError, Never>) {
        try rows.render(context: context, format: format) { (chunk: inout [UInt8]) in
          bytes.append(contentsOf: chunk)
          chunk.removeAll(keepingCapacity: true)
        }
        outcome.bytes = bytes
      } catch {
        switch error {
        case .source(let error): outcome.error = "\(error)"
        case .sumOverflow(let error): outcome.error = "\(PipelineError.totalOverflow(error))"
        }
      }
    } catch {
      outcome.error = "\(error)"
    }
    return outcome
  }

  /// (threads, chunk size, memory limit): inline, small chunks, one record a chunk;
  /// from a limit that spills every entry to one that never spills.
  static let layouts = [
    (1, 1 << 20, Int.max / 2), (1, 1 << 20, 1), (2, 700, 6000), (4, 1, 1 << 20), (3, 5000, 40_000),
  ]

  static let pages = [PageRequest.all, PageRequest(offset: 7, limit: 40), PageRequest(offset: 0, limit: 0)]

  @Test("the same bytes as the Transaction path for every format, filter, page, thread count and memory limit")
  func equivalence() throws {
    var everSpilled = false
    var formats = 0
    for (name, filter) in try SummaryParallelTests.filters() {
      for format in [ReportFormat.csv, .json, .jsonl] {
        for page in Self.pages {
          var options = ListOptions()
          options.filter = filter
          options.page = page
          let expected = Self.oracle(options, format: format, dump: SummaryParallelTests.dump)
          #expect(expected.error == nil)
          #expect(!expected.rejections.isEmpty)
          if page == .all { #expect(expected.bytes.count > 1000, "\(name), \(format)") }
          for (threads, chunkSize, memoryLimit) in Self.layouts {
            options.threads = threads
            options.memoryLimit = memoryLimit
            options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
            var spilled = 0
            let outcome = Self.parallel(options, format: format, dump: SummaryParallelTests.dump, spilled: &spilled)
            #expect(
              outcome == expected,
              "\(name), \(format), \(page), \(threads) threads, chunks of \(chunkSize), limit \(memoryLimit)")
            if memoryLimit == 1 && page == .all && filter.keepsEverything { #expect(spilled > 100) }
            if memoryLimit > 1 << 30 { #expect(spilled == 0) }
            everSpilled = everSpilled || spilled > 0
          }
        }
        formats += 1
      }
    }
    #expect(everSpilled)
    #expect(formats == 18)
  }

  @Test("--strict and --max-rejects stop at the same rejection on every thread count")
  func stops() {
    for strict in [true, false] {
      var options = ListOptions()
      options.read.strict = strict
      options.read.maxRejects = strict ? nil : 30
      let expected = Self.oracle(options, format: .csv, dump: SummaryParallelTests.dump)
      #expect(expected.error != nil)
      for (threads, chunkSize, memoryLimit) in Self.layouts {
        options.threads = threads
        options.memoryLimit = memoryLimit
        options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
        var spilled = 0
        #expect(
          Self.parallel(options, format: .csv, dump: SummaryParallelTests.dump, spilled: &spilled) == expected,
          "\(threads), \(chunkSize), \(memoryLimit)")
      }
    }
  }

  @Test("A sum that overflows fails the same way, and a list that does not is unaffected by huge amounts")
  func overflow() {
    let nines = String(repeating: "9", count: 38)
    let dump = SummaryParallelTests.withHugeAmounts([(300, "Rent", nines, false), (1900, "Rent", nines, false)])
    for format in [ReportFormat.csv, .jsonl] {
      for page in [PageRequest.all, PageRequest(offset: 0, limit: 5)] {
        var options = ListOptions()
        options.page = page
        let expected = Self.oracle(options, format: format, dump: dump)
        for (threads, chunkSize, memoryLimit) in Self.layouts {
          options.threads = threads
          options.memoryLimit = memoryLimit
          options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
          var spilled = 0
          #expect(Self.parallel(options, format: format, dump: dump, spilled: &spilled) == expected)
        }
        // The whole list's EUR debits overflow; the five newest do not.
        #expect((expected.error != nil) == (page == .all), "\(page)")
      }
    }
  }

  @Test("The spill directory is gone after the rows are read, closed early, or the run fails")
  func spillCleanup() throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-list-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    func leftOver() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: parent.path) }

    var options = ListOptions()
    options.memoryLimit = 2000
    options.threads = 2
    options.temporaryDirectory = parent.path
    options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: 3000)
    var registered: [String] = []
    // Read to the end.
    var spilled = 0
    let pipeline = ListPipeline(options: options)
    pipeline.onTemporaryDirectory = { registered.append($0) }
    var inputs = RunInputs(sources: [MemorySource(SummaryParallelTests.dump)])
    let rows = try pipeline.runRendered(
      names: inputs.names, style: .csv, zone: .asWritten, next: { () throws(PipelineError) in try inputs.next() })
    spilled = rows.spilledRuns
    #expect(spilled > 10)
    #expect(registered.count == 1)
    #expect(try leftOver().count == 1)
    while try rows.next() != nil {}
    #expect(try leftOver().isEmpty)

    // Closed after one row.
    var again = RunInputs(sources: [MemorySource(SummaryParallelTests.dump)])
    let early = try pipeline.runRendered(
      names: again.names, style: .json, zone: .asWritten, next: { () throws(PipelineError) in try again.next() })
    #expect(try early.next() != nil)
    #expect(try leftOver().count == 1)
    early.close()
    #expect(try leftOver().isEmpty)

    // A run that fails after spilling (--max-rejects) leaves nothing either.
    options.read.maxRejects = 25
    let failing = ListPipeline(options: options)
    var third = RunInputs(sources: [MemorySource(SummaryParallelTests.dump)])
    #expect(throws: PipelineError.self) {
      _ = try failing.runRendered(
        names: third.names, style: .csv, zone: .asWritten, next: { () throws(PipelineError) in try third.next() })
    }
    #expect(try leftOver().isEmpty)
  }

  @Test("per-account reading and the text and html formats take the Transaction path; dedupe does not")
  func eligibility() {
    var options = ListOptions()
    #expect(ListPipeline(options: options).rendersInParallel(.csv))
    #expect(ListPipeline(options: options).rendersInParallel(.jsonl))
    #expect(!ListPipeline(options: options).rendersInParallel(.text))
    #expect(!ListPipeline(options: options).rendersInParallel(.html))
    options.dedupe = true
    #expect(ListPipeline(options: options).rendersInParallel(.csv))
  }

  @Test("Rows rendered from bytes equal the writers' rows on texts that need quoting, escaping or neutralising")
  func rowsFromBytes() throws {
    let lines = [
      #"{"id":"=1+1","creationTime":"2024-03-01T10:00:00+01:00","transactionAmountCurrency":{"amount":"1.5","currencyCode":"eur"},"creditDebitIndicator":"DBIT","state":"pending","description":"a, \"quoted\"\r\nline","category":"-x","counterPartyName":"Caf\u00e9 \u0001"}"#,
      #"{"id":"b","creationTime":"2024-03-01","transactionAmountCurrency":{"amount":"7","currencyCode":"USD"},"creditDebitIndicator":"CRDT","state":"Completed","description":"@home\tnow","category":"+plus"}"#,
      #"{"id":42,"state":"x","creationTime":"2024-03-01T09:00:00Z","transactionAmountCurrency":{"amount":"0.000001","currencyCode":"EUR"},"creditDebitIndicator":"DBIT"}"#,
    ]
    let dump = Array(lines.joined(separator: "\n").utf8)
    for format in [ReportFormat.csv, .json, .jsonl] {
      let options = ListOptions()
      let expected = Self.oracle(options, format: format, dump: dump)
      #expect(expected.error == nil)
      #expect(Array(expected.counts.prefix(3)) == [3, 3, 0])
      var spilled = 0
      let outcome = Self.parallel(options, format: format, dump: dump, spilled: &spilled)
      #expect(outcome == expected, "\(format)")
      #expect(String(decoding: outcome.bytes, as: UTF8.self).contains(format == .csv ? "'=1+1" : "\\u0001"))
    }
  }
}
