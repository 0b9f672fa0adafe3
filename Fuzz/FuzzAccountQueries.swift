// Target 14 (`>`): `list` and `summary --per-account` on every core against the `Transaction`
// path kept as their oracle.
import Foundation

/// The workers' path of `list --per-account` (rows rendered into entries with their account,
/// sorted, spilled and merged: `ListPipeline.runPerAccountRendered`) and of `summary
/// --per-account` (records keyed into entries, summed per account: `SummaryPipeline.runPerAccount`)
/// against the `Transaction` path (`runPerAccount` with `AccountListWriter.write`, and
/// `runPerAccountOneByOne`): the same bytes (list, in the format the input picks), the same
/// accounts, sums and days (summary), the same stats and rejections, or the same error. The input
/// picks the threads (1–3), a memory limit that spills or not, `--dedupe`, a filter, a page and a
/// summary dimension; the merge's fan-in is 3, so spilled runs merge in several passes.
func fuzzAccountQueries(_ bytes: [UInt8]) {
  let threads = 1 + fuzzKnob(bytes, 3)
  let memoryLimit = bytes.count % 3 == 0 ? 24 << 10 : 64 << 20
  let dedupe = bytes.count % 5 == 0
  let filters = [
    TransactionFilter(),
    TransactionFilter(categories: ["Groceries", TransactionFilter.uncategorized]),
    TransactionFilter(states: ["pending"], currencies: ["eur"]),
    TransactionFilter(
      since: CalendarDay(year: 2019, month: 1, day: 1), until: CalendarDay(year: 2024, month: 6, day: 30)),
  ]
  let filter = filters[fuzzKnob(bytes, filters.count)]
  var read = ReadOptions()
  read.accounts = .field
  read.limits.chunkSize = 1 + fuzzKnob(bytes, 61)
  // The per-account fixture's records are 300–550 bytes: a smaller limit would reject them all.
  read.limits.maxRecordBytes = 1024
  read.allowTrailingCommas = bytes.count % 2 == 0

  var summary = SummaryOptions()
  summary.read = read
  summary.threads = threads
  summary.memoryLimit = memoryLimit
  summary.dedupe = dedupe
  summary.filter = filter
  summary.maxFanIn = 3
  summary.dimension = SummaryDimension.allCases[fuzzKnob(bytes, SummaryDimension.allCases.count)]
  let expected = fuzzAccountSummaries(bytes, options: summary, oneByOne: true)
  let parallel = fuzzAccountSummaries(bytes, options: summary, oneByOne: false)
  if parallel != expected {
    fuzzFailure("summary --per-account on every core differs from the Transaction path: \(parallel) \(expected)")
  }

  var list = ListOptions()
  list.read = read
  list.threads = threads
  list.memoryLimit = memoryLimit
  list.dedupe = dedupe
  list.filter = filter
  list.maxFanIn = 3
  let pages = [PageRequest.all, PageRequest(offset: 0, limit: 2), PageRequest(offset: 1, limit: 3)]
  list.page = pages[fuzzKnob(bytes, pages.count)]
  let formats = [ReportFormat.csv, .json, .jsonl]
  let format = formats[bytes.count % formats.count]
  let path = NSTemporaryDirectory() + "txfold-fuzz-account-queries-\(ProcessInfo.processInfo.processIdentifier)"
  guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
    fuzzFailure("cannot write the dump to \(path)")
  }
  defer { try? FileManager.default.removeItem(atPath: path) }
  let oracle = fuzzAccountList(path, options: list, format: format, parallel: false)
  let rendered = fuzzAccountList(path, options: list, format: format, parallel: true)
  if rendered != oracle {
    fuzzFailure("list --per-account \(format) on every core differs from the Transaction path")
  }
}

/// What a per-account query gave: its output, stats and rejections, or its error.
struct FuzzAccountOutcome: Equatable {
  var summaries: [AccountSummary] = []
  var days: [DaySpan?] = []
  var bytes: [UInt8] = []
  var stats: RunStats?
  var rejections: [String] = []
  var error: String?
}

/// `summary --per-account` over `bytes`, on every core or one transaction at a time.
func fuzzAccountSummaries(_ bytes: [UInt8], options: SummaryOptions, oneByOne: Bool) -> FuzzAccountOutcome {
  var outcome = FuzzAccountOutcome()
  let pipeline = SummaryPipeline(options: options)
  pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
  do throws(PipelineError) {
    let sources: [any ByteSource] = [FuzzSource(bytes, step: 1 + fuzzKnob(bytes, 17))]
    let cursor =
      oneByOne ? try pipeline.runPerAccountOneByOne(sources: sources) : try pipeline.runPerAccount(sources: sources)
    defer { cursor.close() }
    while let account = try cursor.next() {
      outcome.summaries.append(account)
      outcome.days.append(cursor.days)
    }
    outcome.stats = cursor.stats
  } catch {
    outcome.error = "\(error)"
  }
  return outcome
}

/// `list --per-account` over the dump at `path` in `format`, rendered by the workers or through
/// each account's transactions.
func fuzzAccountList(_ path: String, options: ListOptions, format: ReportFormat, parallel: Bool)
  -> FuzzAccountOutcome
{
  var outcome = FuzzAccountOutcome()
  let pipeline = ListPipeline(options: options)
  pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
  let out = ByteCollector()
  guard var writer = AccountListWriter(format: format) else { fuzzFailure("no per-account writer for \(format)") }
  do throws(PipelineError) {
    if parallel {
      guard let rows = try pipeline.runPerAccountRendered(paths: [path], format: format, zone: .asWritten) else {
        fuzzFailure("list --per-account \(format) is not rendered on every core")
      }
      defer { rows.close() }
      do throws(ListRenderer.Failure<PipelineError, Never>) {
        try writer.writeEntries(
          stats: { rows.stats }, page: rows.page, nextAccount: rows.nextAccount, next: rows.next, flush: out.flush)
      } catch {
        outcome.error = "\(error)"
      }
      outcome.stats = rows.stats
    } else {
      let cursor = try pipeline.runPerAccount(paths: [path])
      defer { cursor.close() }
      do throws(ListRenderer.Failure<PipelineError, Never>) {
        try writer.write(
          stats: { cursor.stats }, page: cursor.page, nextAccount: cursor.nextAccount, next: cursor.next,
          flush: out.flush)
      } catch {
        outcome.error = "\(error)"
      }
      outcome.stats = cursor.stats
    }
  } catch {
    outcome.error = "\(error)"
  }
  outcome.bytes = out.bytes
  return outcome
}
