import Foundation
import Testing

@testable import TxFold

/// `list --per-account` on every core in `csv`, `json` and `jsonl`
/// (`ListPipeline.runPerAccountRendered`: rows rendered by the workers into
/// entries with their account, written by `AccountListWriter.writeEntries`)
/// against the `Transaction` path (`runPerAccount`, `AccountListWriter.write`):
/// the same bytes, stats and rejections, or the same error, for every page,
/// filter, thread count and memory limit.
@Suite("list --per-account on every core")
struct PerAccountListParallelTests {
  struct Outcome: Equatable {
    var bytes: [UInt8] = []
    var stats: RunStats?
    var rejections: [String] = []
    var error: String?
  }

  /// `dump` in a file of its own (the parallel path reads paths), removed after `body`.
  static func withFile<T>(_ dump: [UInt8], _ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("per-account-list-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("dump.jsonl").path
    try Data(dump).write(to: URL(fileURLWithPath: path))
    return try body(path)
  }

  static func run(_ options: ListOptions, format: ReportFormat, path: String, parallel: Bool) throws -> Outcome {
    var outcome = Outcome()
    var options = options
    options.read.accounts = .field
    let pipeline = ListPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    var bytes: [UInt8] = []
    let flush: (inout [UInt8]) -> Void = { chunk in
      bytes += chunk
      chunk.removeAll(keepingCapacity: true)
    }
    var writer = try #require(AccountListWriter(format: format))
    do throws(PipelineError) {
      if parallel {
        guard let rows = try pipeline.runPerAccountRendered(paths: [path], format: format, zone: .asWritten) else {
          outcome.error = "not rendered in parallel"
          return outcome
        }
        defer { rows.close() }
        outcome.stats = rows.stats
        do throws(ListRenderer.Failure<PipelineError, Never>) {
          try writer.writeEntries(
            stats: rows.stats, page: rows.page, nextAccount: rows.nextAccount, next: rows.next, flush: flush)
        } catch {
          outcome.error = "\(error)"
        }
      } else {
        let cursor = try pipeline.runPerAccount(paths: [path])
        defer { cursor.close() }
        outcome.stats = cursor.stats
        do throws(ListRenderer.Failure<PipelineError, Never>) {
          try writer.write(
            typedStats: cursor.stats, page: cursor.page, nextAccount: cursor.nextAccount, next: cursor.next,
            flush: flush)
        } catch {
          outcome.error = "\(error)"
        }
      }
    } catch {
      outcome.error = "\(error)"
    }
    outcome.bytes = bytes
    return outcome
  }

  @Test("the same bytes, stats and rejections as the Transaction path, spilled or not")
  func equivalence() throws {
    let pages = [PageRequest.all, PageRequest(offset: 0, limit: 3), PageRequest(offset: 2, limit: 2)]
    for format in [ReportFormat.csv, .json, .jsonl] {
      for (number, filter) in PerAccountSummaryParallelTests.filters.enumerated() {
        for page in pages where number == 0 || page == .all {
          for (threads, memoryLimit, dedupe) in [(1, 64 << 20, false), (3, 24 << 10, false), (2, 24 << 10, true)] {
            var options = ListOptions()
            options.dedupe = dedupe
            options.filter = filter
            options.page = page
            options.threads = threads
            options.memoryLimit = memoryLimit
            options.maxFanIn = 3
            let (expected, parallel) = try Self.withFile(PerAccountSummaryParallelTests.dump) { path in
              (
                try Self.run(options, format: format, path: path, parallel: false),
                try Self.run(options, format: format, path: path, parallel: true)
              )
            }
            #expect(expected.error == nil)
            #expect(expected.bytes.count > 1000)
            #expect(
              parallel == expected,
              "\(format), filter \(number), \(page), \(threads) threads, limit \(memoryLimit), \(dedupe)")
          }
        }
      }
    }
  }

  @Test("A page's sum that overflows stops both paths with the same error")
  func overflow() throws {
    let huge = String(repeating: "9", count: 38)
    let lines = [
      PerAccountSummaryParallelTests.record(account: "\"A\"", id: "1", amount: "1"),
      PerAccountSummaryParallelTests.record(account: "\"B\"", id: "2", amount: huge),
      PerAccountSummaryParallelTests.record(account: "\"B\"", id: "3", amount: huge),
    ]
    let dump = Array((lines.joined(separator: "\n") + "\n").utf8)
    for format in [ReportFormat.csv, .json] {
      let (expected, parallel) = try Self.withFile(dump) { path in
        (
          try Self.run(ListOptions(), format: format, path: path, parallel: false),
          try Self.run(ListOptions(), format: format, path: path, parallel: true)
        )
      }
      #expect(expected.error != nil)
      #expect(parallel == expected)
    }
  }

  @Test("Text, html and output directories take the Transaction path; csv, json and jsonl per account do not")
  func eligibility() {
    var options = ListOptions()
    options.read.accounts = .field
    let pipeline = ListPipeline(options: options)
    for format in [ReportFormat.csv, .json, .jsonl] { #expect(pipeline.rendersPerAccountInParallel(format)) }
    for format in [ReportFormat.text, .html] { #expect(!pipeline.rendersPerAccountInParallel(format)) }
    #expect(!ListPipeline(options: ListOptions()).rendersPerAccountInParallel(.csv))
  }
}
