// Targets 3-6: the partial formats (`group --emit partial`, plain and per-account)
// and their mergers, on partials as the fuzzer mutates them and on partials made
// from a fuzzed dump.

/// A plain partial read back through `PartialMerger`, or `nil` when refused.
func fuzzReadPartial(_ bytes: [UInt8], step: Int) -> PartialState? {
  let merger = PartialMerger()
  do {
    try merger.read(FuzzSource(bytes, step: step, name: "partial"))
  } catch {
    return nil
  }
  return merger.merged
}

/// What the merger accepted must write out and read back to the same bytes: the
/// reader and the writer agree on everything the reader let through.
func fuzzCheckPartialRoundTrip(_ state: PartialState) {
  let written = PartialStateWriter.writeToBytes(state)
  guard let again = fuzzReadPartial(written, step: 1 + written.count % 97) else {
    fuzzFailure("a partial the merger wrote is refused by the merger")
  }
  if PartialStateWriter.writeToBytes(again) != written { fuzzFailure("a partial does not write back to its own bytes") }
  if again.report() != state.report() { fuzzFailure("a partial does not read back to its own report") }
}

/// Target 3: the payload as a partial (the seeds are real ones). No crash on any
/// bytes; anything accepted survives a write-and-read round trip unchanged.
func fuzzPartialFile(_ bytes: [UInt8]) {
  guard let state = fuzzReadPartial(bytes, step: 1 + fuzzKnob(bytes, 29)) else { return }
  let report = state.report()
  if report.stats.lines != report.stats.accepted + report.stats.rejected {
    // The merger checks the identity of each partial's stats line; a merged state must keep it.
    fuzzFailure("an accepted partial breaks lines == accepted + rejected")
  }
  _ = fuzzRenderAll(report)
  fuzzCheckPartialRoundTrip(state)
}

/// Flips a few bytes of `bytes` at places the payload picks: a mutated partial
/// made from a valid one, so the reader meets damage deep inside real structure.
func fuzzDamage(_ bytes: [UInt8], seed: [UInt8]) -> [UInt8] {
  guard !bytes.isEmpty else { return bytes }
  var damaged = bytes
  var hash = UInt64(fuzzKnob(seed, 1 << 30)) | 1
  for _ in 0..<(1 + fuzzKnob(seed, 3)) {
    // xorshift: positions and values spread over the whole partial.
    hash ^= hash << 13
    hash ^= hash >> 7
    hash ^= hash << 17
    damaged[Int(hash % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: hash >> 32)
  }
  return damaged
}

/// Target 4: the payload as a dump, folded into a partial: merging that partial
/// alone gives the report of the single run it came from, and its bytes read
/// back unchanged; then the same partial damaged must be refused or read cleanly.
func fuzzPartialRun(_ bytes: [UInt8]) {
  var options = fuzzGroupOptions(bytes)
  options.threads = 1 + fuzzKnob(bytes, 2)
  guard
    let state = try? GroupPipeline(options: options).runPartial(
      sources: [FuzzSource(bytes, step: 1 + fuzzKnob(bytes, 17))])
  else { return }
  guard let single = fuzzGroupRun(bytes, options: options) else { fuzzFailure("runPartial accepted what run refused") }
  let written = PartialStateWriter.writeToBytes(state)
  guard let merged = fuzzReadPartial(written, step: 1 + fuzzKnob(bytes, 31)) else {
    fuzzFailure("the partial of a run is refused by the merger")
  }
  let mergedReport = merged.report()
  if mergedReport.sections != single.sections { fuzzFailure("merge of a run's partial != the run's groups") }
  let (mergedStats, singleStats) = (mergedReport.stats, single.stats)
  if mergedStats.lines != singleStats.lines || mergedStats.accepted != singleStats.accepted
    || mergedStats.rejected != singleStats.rejected || mergedStats.rejectedByReason != singleStats.rejectedByReason
  {
    fuzzFailure("merge of a run's partial != the run's accounting")
  }
  if fuzzRenderAll(mergedReport) != fuzzRenderAll(state.report()) {
    fuzzFailure("a partial renders otherwise once merged")
  }
  if PartialStateWriter.writeToBytes(merged) != written {
    fuzzFailure("a run's partial does not write back to its bytes")
  }
  if let damaged = fuzzReadPartial(fuzzDamage(written, seed: bytes), step: 7) { fuzzCheckPartialRoundTrip(damaged) }
}

/// A per-account merge of `partials`: every account and the final stats, and the
/// merge written as one per-account partial; `nil` when refused.
func fuzzMergeAccountPartials(_ partials: [[UInt8]], step: Int) -> (
  accounts: [AccountReport], stats: RunStats, rewritten: [UInt8]
)? {
  func merger() -> AccountPartialMerger? {
    try? AccountPartialMerger(
      sources: partials.enumerated().map { FuzzSource($0.element, step: step, name: "part-\($0.offset)") })
  }
  guard let reading = merger() else { return nil }
  var accounts: [AccountReport] = []
  do {
    while let account = try reading.next() { accounts.append(account) }
  } catch {
    return nil
  }
  // Accounts come out strictly in byte-wise order of their ids: that is what lets the merge stream.
  for (earlier, later) in zip(accounts, accounts.dropFirst())
  where !Array(earlier.account.utf8).lexicographicallyPrecedes(Array(later.account.utf8)) {
    fuzzFailure("merged accounts out of order: \(earlier.account) before \(later.account)")
  }
  guard let writing = merger() else { fuzzFailure("a per-account partial opened once and not twice") }
  let out = ByteCollector()
  do {
    try writing.writePartial(flush: out.flush)
  } catch {
    fuzzFailure("a per-account merge that reads cleanly fails to write: \(error)")
  }
  return (accounts, reading.stats, out.bytes)
}

/// Target 5: the payload as a per-account partial (the seeds are real ones). No
/// crash on any bytes; what is accepted writes out to a partial that merges to
/// the same accounts and writes back to the same bytes.
func fuzzAccountPartialFile(_ bytes: [UInt8]) {
  guard let first = fuzzMergeAccountPartials([bytes], step: 1 + fuzzKnob(bytes, 29)) else { return }
  let stats = first.stats
  if stats.lines != stats.accepted + stats.rejected {
    fuzzFailure("an accepted per-account partial breaks the identity")
  }
  if stats.accounts != first.accounts.count { fuzzFailure("per-account merge: stats.accounts != accounts handed out") }
  guard let second = fuzzMergeAccountPartials([first.rewritten], step: 61) else {
    fuzzFailure("a per-account partial the merger wrote is refused by the merger")
  }
  if second.accounts != first.accounts { fuzzFailure("a rewritten per-account partial merges to other accounts") }
  if second.rewritten != first.rewritten { fuzzFailure("a per-account partial does not write back to its bytes") }
}

/// Target 6: the payload as a dump, written as a per-account partial (spilling
/// when the payload says so): merging it alone gives the accounts of the
/// per-account run it came from; the same partial damaged must not crash.
func fuzzAccountPartialRun(_ bytes: [UInt8]) {
  var options = fuzzGroupOptions(bytes)
  options.read.accounts = .field
  options.threads = 1 + fuzzKnob(bytes, 2)
  options.memoryLimit = fuzzKnob(bytes, 2) == 0 ? 1 : 512 << 20
  let step = 1 + fuzzKnob(bytes, 13)
  guard let cursor = try? GroupPipeline(options: options).runPerAccountPartial(sources: [FuzzSource(bytes, step: step)])
  else { return }
  let partial = ByteCollector()
  do {
    try cursor.writePartial(flush: partial.flush)
  } catch {
    return  // a rejection under the options' rules, met while the accounts are written
  }
  guard let direct = try? GroupPipeline(options: options).runPerAccount(sources: [FuzzSource(bytes, step: step)])
  else { fuzzFailure("runPerAccount refused what runPerAccountPartial accepted") }
  var expected: [AccountReport] = []
  do {
    while let account = try direct.next() { expected.append(account) }
  } catch {
    fuzzFailure("runPerAccount failed where its partial was written: \(error)")
  }
  guard let merged = fuzzMergeAccountPartials([partial.bytes], step: 1 + fuzzKnob(bytes, 31)) else {
    fuzzFailure("the per-account partial of a run is refused by the merger")
  }
  if merged.accounts != expected { fuzzFailure("merge of a run's per-account partial != the run's accounts") }
  let (mergedStats, runStats) = (merged.stats, direct.stats)
  if mergedStats.lines != runStats.lines || mergedStats.accepted != runStats.accepted
    || mergedStats.rejected != runStats.rejected || mergedStats.accounts != runStats.accounts
  {
    fuzzFailure("merge of a run's per-account partial != the run's accounting")
  }
  if let damaged = fuzzMergeAccountPartials([fuzzDamage(partial.bytes, seed: bytes)], step: 7) {
    let stats = damaged.stats
    if stats.lines != stats.accepted + stats.rejected {
      fuzzFailure("a damaged per-account partial breaks the identity")
    }
  }
}
