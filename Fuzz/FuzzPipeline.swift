// Targets 0-2: the record scanner and decoder, the whole `group` pipeline, and
// `--per-account` spilling to disk.

import CJSONIndex

/// Target 0: the payload as one record. The token-index fast path must agree with
/// the byte state machine: the same verdict, reason, offset and slots.
func fuzzScanner(_ bytes: [UInt8]) {
  let trailingCommas = bytes.count % 2 == 0
  bytes.withUnsafeBufferPointer { record in
    _ = RecordDecoder(schema: .backbase, allowTrailingCommas: trailingCommas).decode(record)
    guard !record.isEmpty else { return }
    let trie = RecordSchema.backbase.trie
    let fast = RecordScanner(trie: trie, allowTrailingCommas: trailingCommas, kernel: .best)
    let reference = RecordScanner(trie: trie, allowTrailingCommas: trailingCommas, kernel: .byteAtATime)
    let fastFailure = fast.scan(record)
    let referenceFailure = reference.scan(record)
    if fastFailure != referenceFailure {
      fuzzFailure("token index and byte scanner disagree on the verdict")
    }
    if fastFailure == nil, (0..<trie.slotCount).contains(where: { fast.value($0) != reference.value($0) }) {
      fuzzFailure("token index and byte scanner disagree on a slot")
    }
  }
}

/// The options a dump target runs with, varied by the payload (chunk size, member
/// limit, trailing commas) but the same for every run one input compares.
func fuzzGroupOptions(_ bytes: [UInt8]) -> GroupOptions {
  var options = GroupOptions()
  options.read.limits.chunkSize = 1 + fuzzKnob(bytes, 61)
  options.read.limits.maxRecordBytes = 256
  options.read.allowTrailingCommas = bytes.count % 2 == 0
  options.memberLimit = bytes.count % 4
  return options
}

/// One `group` run over the payload as a dump, or `nil` when the run refused it.
func fuzzGroupRun(_ bytes: [UInt8], options: GroupOptions) -> GroupReport? {
  let pipeline = GroupPipeline(options: options)
  var rejected = 0
  pipeline.onRejection = { _ in rejected += 1 }
  let step = 1 + fuzzKnob(bytes, 17)
  guard let report = try? pipeline.run(sources: [FuzzSource(bytes, step: step)]) else { return nil }
  // The accounting identity holds for every input, and every rejection was reported.
  if report.stats.lines != report.stats.accepted + report.stats.rejected {
    fuzzFailure("lines \(report.stats.lines) != accepted \(report.stats.accepted) + rejected \(report.stats.rejected)")
  }
  if report.stats.rejected != rejected { fuzzFailure("rejected \(report.stats.rejected) but \(rejected) reported") }
  if report.stats.rejectedByReason.values.reduce(0, +) != report.stats.rejected {
    fuzzFailure("the rejections by reason do not add up to the rejected count")
  }
  // Without dedupe every accepted record is in exactly one group.
  if !options.dedupe {
    let grouped = report.sections.reduce(0) { $0 + $1.groups.reduce(0) { $0 + $1.count } }
    if grouped != report.stats.accepted {
      fuzzFailure("the groups hold \(grouped) transactions, \(report.stats.accepted) accepted")
    }
  }
  return report
}

/// Every renderer's bytes for a report, in `ReportFormat.allCases` order.
func fuzzRenderAll(_ report: GroupReport) -> [[UInt8]] {
  ReportFormat.allCases.map { ReportRenderer.renderToBytes(report, format: $0) }
}

/// Target 1: the payload as a dump through the whole pipeline (gzip detection,
/// framing with a varying chunk and read size, decoding, folding, every renderer),
/// with 1 and with 2 worker threads: the reports and every rendering must be equal.
func fuzzGroup(_ bytes: [UInt8]) {
  fuzzSkimFraming(bytes)
  var options = fuzzGroupOptions(bytes)
  options.dedupe = fuzzKnob(bytes, 3) == 0
  options.threads = 1
  let one = fuzzGroupRun(bytes, options: options)
  options.threads = 2
  let two = fuzzGroupRun(bytes, options: options)
  guard let one, let two else {
    if (one == nil) != (two == nil) { fuzzFailure("one thread count refused the input, the other did not") }
    return
  }
  if one != two { fuzzFailure("the reports of 1 and 2 worker threads differ") }
  if fuzzRenderAll(one) != fuzzRenderAll(two) { fuzzFailure("the renderings of 1 and 2 worker threads differ") }
}

/// A per-account run's `jsonl` bytes and its spilled run count, or `nil` when the run refused the input.
func fuzzPerAccountBytes(_ bytes: [UInt8], options: GroupOptions) -> (bytes: [UInt8], runs: Int)? {
  let step = 1 + fuzzKnob(bytes, 13)
  guard
    let cursor = try? GroupPipeline(options: options).runPerAccount(sources: [FuzzSource(bytes, step: step)]),
    var writer = AccountReportWriter(format: .jsonl)
  else { return nil }
  let out = ByteCollector()
  writer.begin(flush: out.flush)
  var accounts = 0
  do {
    while let account = try cursor.next() {
      accounts += 1
      if account.count != account.sections.reduce(0, { $0 + $1.groups.reduce(0) { $0 + $1.count } }) {
        fuzzFailure("account \(account.account) counts \(account.count), its groups hold otherwise")
      }
      writer.write(account, flush: out.flush)
    }
  } catch {
    return nil
  }
  let stats = cursor.stats
  if stats.lines != stats.accepted + stats.rejected { fuzzFailure("per-account: lines != accepted + rejected") }
  if stats.accounts != accounts {
    fuzzFailure("per-account: stats count \(stats.accounts ?? -1) accounts, \(accounts) handed out")
  }
  writer.finish(stats: stats, flush: out.flush)
  return (out.bytes, cursor.spilledRuns)
}

/// Target 2: `--per-account` with a memory limit of one byte, so that the fold
/// spills to disk and merges back, against the same run in memory: byte for byte.
func fuzzSpill(_ bytes: [UInt8]) {
  var options = fuzzGroupOptions(bytes)
  options.read.accounts = .field
  // The per-account fixture's records are 300–550 bytes: at the group targets' 256 all were rejected.
  options.read.limits.maxRecordBytes = 1024
  options.threads = 1 + fuzzKnob(bytes, 2)
  options.memoryLimit = 512 << 20
  let inMemory = fuzzPerAccountBytes(bytes, options: options)
  options.memoryLimit = 1
  let spilled = fuzzPerAccountBytes(bytes, options: options)
  guard let inMemory, let spilled else {
    if (inMemory == nil) != (spilled == nil) { fuzzFailure("only one of the spilled and in-memory runs failed") }
    return
  }
  if inMemory.runs != 0 { fuzzFailure("a run within 512 MiB spilled") }
  if inMemory.bytes != spilled.bytes { fuzzFailure("spilled and in-memory per-account output differ") }
}

/// Target 12 (`<`): `--dedupe` against an oracle outside the pipeline: the transactions
/// `TransactionReader` reads, the latest per id (by the id's bytes; a tie goes to the later
/// record) grouped in memory (`TransactionGrouping`). The run goes through 1 or 2 threads, the
/// id table in memory or spilled by a 1-byte memory limit.
func fuzzDedupe(_ bytes: [UInt8]) {
  var options = fuzzGroupOptions(bytes)
  options.dedupe = true
  options.threads = 1 + fuzzKnob(bytes, 2)
  options.memoryLimit = bytes.count % 3 == 0 ? 1 : 512 << 20
  guard let report = fuzzGroupRun(bytes, options: options) else { return }
  var read = options.read
  read.requireAcceptedRecords = false
  var all: [(transaction: Transaction, position: Int)] = []
  do throws(TransactionReadError<Never>) {
    _ = try TransactionReader(options: read).read(typedSources: [MemorySource(bytes: bytes, name: "fuzz")]) {
      (transaction, position) throws(Never) in all.append((transaction, position))
    }
  } catch {
    fuzzFailure("the reader refused an input the run took: \(error)")
  }
  var latest: [[UInt8]: Int] = [:]
  for (index, entry) in all.enumerated() {
    let key = Array(entry.transaction.id.utf8)
    if let current = latest[key], entry.transaction.instant.compareInstant(all[current].transaction.instant) < 0 {
      continue
    }
    latest[key] = index
  }
  let winners = latest.values.sorted().map { all[$0].transaction }
  if report.stats.duplicates != all.count - winners.count {
    fuzzFailure("\(report.stats.duplicates) duplicates, the oracle finds \(all.count - winners.count)")
  }
  guard let expected = try? TransactionGrouping.group(winners, memberLimit: options.memberLimit) else { return }
  if expected.sections != report.sections { fuzzFailure("the dedupe report differs from the oracle's") }
}

/// Target 1's framing check: the payload framed as a document with the walker's vector skim
/// (every kernel this CPU has, and the portable one) gives the spans and counters of its byte
/// loop alone, the buffer growing by a step the payload picks.
func fuzzSkimFraming(_ bytes: [UInt8]) {
  func walked(_ kernel: Int32) -> ([RecordSpan], Int, Int) {
    var walker = DocumentWalker(
      itemsPath: nil, allowTrailingCommas: bytes.count % 2 == 0, maxRecordBytes: 256, skimKernel: kernel)
    let spans = walker.walkAll(bytes, step: 1 + fuzzKnob(bytes, 67))
    return (spans, walker.line, walker.errors)
  }
  let reference = walked(-1)
  for kernel in [Int32(TXFOLD_JSON_INDEX_KERNEL_PORTABLE), txfold_json_index_best_kernel()] {
    let skimmed = walked(kernel)
    if skimmed.0 != reference.0 || skimmed.1 != reference.1 || skimmed.2 != reference.2 {
      fuzzFailure("the walker's skim with kernel \(kernel) frames differently from its byte loop")
    }
  }
}
