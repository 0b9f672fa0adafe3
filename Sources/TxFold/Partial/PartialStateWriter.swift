/// Writes a `PartialState` in the partial format, version 3: JSON lines, each
/// an object with one key that names the line's kind.
///
/// ```
/// {"txfoldPartial":{"version":3,"memberLimit":20,"schema":"backbase","timezone":null,"dedupe":false,"maxRecordBytes":1048576,"allowTrailingCommas":false,"inputs":[{"bytes":1562,"xxh64":"5be3a2f1c0d94e87"}]}}
/// {"group":{"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","count":2,"amount":"3839.90"}],"latest":"2019-05-17T14:28:01","latestEpochSeconds":1558103281,"members":2}}
/// {"member":{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","instant":"2019-05-17T14:28:01","epochSeconds":1558103281}}
/// {"member":{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","instant":"2019-05-17T09:00:00","epochSeconds":1558083600}}
/// {"stats":{"groups":1,"lines":7,"accepted":2,"rejected":5,"rejectedByReason":{"invalid-json":5},"duplicates":0,"bytesRead":1562,"bytesDecoded":1562}}
/// ```
///
/// - `txfoldPartial` (first line): the format version and the settings that
///   must be equal for partials to merge (`PartialSettings`); `memberLimit` is
///   a number or `"all"`, `timezone` an IANA name or `null`, `dedupe` always
///   `false`; `inputs` the fingerprints (`InputFingerprint`) of the inputs
///   that held a record, sorted, each once, so merge can refuse one given twice.
/// - `group`: one per group, ordered by state (byte-wise), date and
///   indicator. `count` covers every transaction folded in; `totals` are exact
///   sums of magnitudes, one per currency sorted by code, in canonical decimal
///   text that keeps the scale (`"3839.90"`); `latest` is the latest timestamp
///   as written and `latestEpochSeconds` its instant in whole seconds since
///   1970 UTC (the fraction is in the written form) — explicit because
///   `--timezone` places offset-less timestamps, so the text alone does not
///   fix the instant; `members` is the number of `member` lines that follow.
/// - `member`: a kept member, in report order: `id`, `description` (only when
///   present), `amount` (the magnitude), `currency`, `instant` as written and
///   `epochSeconds`.
/// - `stats` (last line): `groups` (how many group lines came before, so a
///   truncated partial is detected), the accounting of the input the partial
///   covers (`rejectedByReason` holds the non-zero counts by reason code) and
///   the bytes it read (stored and decompressed).
///
/// Strings are escaped as in the reports (`JSONEscaping`); the output is the
/// same bytes on every run and thread count. Several partials may be
/// concatenated into one stream: a header after a `stats` line starts the next.
///
/// The library's callers reach it through `PartialState.write(flush:)` and
/// `PartialState.serialized()`.
package enum PartialStateWriter {
  /// Writes `state`, handing the buffer to `flush` whenever it passes
  /// `BufferFlushing.threshold` bytes and once at the end (see
  /// `ReportRenderer.render(_:format:options:flush:)` for the contract).
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members;
  ///   memory O(flush threshold + one group).
  package static func write<E: Error>(_ state: PartialState, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    var out: [UInt8] = []
    out.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
    appendHeader(state.settings, inputs: state.inputs, to: &out)
    var groupCount = 0
    try state.table.forEachPartialGroup { (group) throws(E) in
      groupCount += 1
      appendGroup(group, to: &out)
      for member in group.members {
        appendMember(member, to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
      try BufferFlushing.flushIfFull(&out, flush)
    }
    appendStats(state.stats, groups: groupCount, to: &out)
    try flush(&out)
    out.removeAll(keepingCapacity: true)
  }

  /// The whole partial as one byte array (for tests and small states).
  package static func writeToBytes(_ state: PartialState) -> [UInt8] {
    BufferFlushing.collect { flush in write(state, flush: flush) }
  }

  /// The header line; a per-account partial's (`accounts` set) is a
  /// `txfoldAccountPartial` line of its own version with an `accounts` key.
  static func appendHeader(
    _ settings: PartialSettings, inputs: [InputFingerprint], accounts: String? = nil, to out: inout [UInt8]
  ) {
    if accounts == nil {
      out.append(contentsOf: "{\"txfoldPartial\":{\"version\":\(PartialState.formatVersion),".utf8)
    } else {
      out.append(contentsOf: "{\"txfoldAccountPartial\":{\"version\":\(AccountPartialWriter.formatVersion),".utf8)
    }
    out.append(contentsOf: "\"memberLimit\":".utf8)
    if settings.memberLimit == Int.max {
      out.append(contentsOf: "\"all\"".utf8)
    } else {
      out.append(contentsOf: String(settings.memberLimit).utf8)
    }
    out.append(contentsOf: ",\"schema\":".utf8)
    JSONEscaping.appendString(settings.schema, to: &out)
    out.append(contentsOf: ",\"timezone\":".utf8)
    if let timezone = settings.timezone {
      JSONEscaping.appendString(timezone, to: &out)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    out.append(contentsOf: ",\"dedupe\":false,\"maxRecordBytes\":".utf8)
    out.append(contentsOf: String(settings.maxRecordBytes).utf8)
    out.append(contentsOf: ",\"allowTrailingCommas\":".utf8)
    out.append(contentsOf: (settings.allowTrailingCommas ? "true" : "false").utf8)
    out.append(contentsOf: ",\"inputs\":[".utf8)
    for (index, input) in inputs.enumerated() {
      if index > 0 { out.append(.comma) }
      out.append(contentsOf: "{\"bytes\":\(input.bytes),\"xxh64\":\"\(input.hashText)\"}".utf8)
    }
    out.append(contentsOf: "]".utf8)
    if let accounts {
      out.append(contentsOf: ",\"accounts\":".utf8)
      JSONEscaping.appendString(accounts, to: &out)
    }
    out.append(contentsOf: "}}\n".utf8)
  }

  static func appendGroup(_ group: PartialGroup, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"group\":{\"state\":".utf8)
    JSONEscaping.appendString(bytes: group.state, to: &out)
    out.append(contentsOf: ",\"date\":\"".utf8)
    group.day.appendText(to: &out)
    out.append(contentsOf: "\",\"creditDebitIndicator\":\"".utf8)
    out.append(contentsOf: group.indicator.code.utf8)
    out.append(contentsOf: "\",\"count\":".utf8)
    out.append(contentsOf: String(group.count).utf8)
    out.append(contentsOf: ",\"totals\":[".utf8)
    for (index, total) in group.totals.enumerated() {
      if index > 0 { out.append(.comma) }
      out.append(contentsOf: "{\"currency\":".utf8)
      JSONEscaping.appendString(bytes: total.currency, to: &out)
      out.append(contentsOf: ",\"count\":\(total.count),\"amount\":\"".utf8)
      total.sum.appendText(to: &out)
      out.append(contentsOf: "\"}".utf8)
    }
    out.append(contentsOf: "],\"latest\":\"".utf8)
    group.latest.appendText(to: &out)
    out.append(contentsOf: "\",\"latestEpochSeconds\":".utf8)
    out.append(contentsOf: String(group.latest.epochSeconds).utf8)
    out.append(contentsOf: ",\"members\":".utf8)
    out.append(contentsOf: String(group.members.count).utf8)
    out.append(contentsOf: "}}\n".utf8)
  }

  static func appendMember(_ member: KeptMember, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"member\":{\"id\":".utf8)
    JSONEscaping.appendString(bytes: member.id, to: &out)
    if let description = member.description {
      out.append(contentsOf: ",\"description\":".utf8)
      JSONEscaping.appendString(bytes: description, to: &out)
    }
    out.append(contentsOf: ",\"amount\":\"".utf8)
    member.amount.appendText(to: &out)
    out.append(contentsOf: "\",\"currency\":".utf8)
    JSONEscaping.appendString(bytes: member.currency, to: &out)
    out.append(contentsOf: ",\"instant\":\"".utf8)
    member.instant.appendText(to: &out)
    out.append(contentsOf: "\",\"epochSeconds\":".utf8)
    out.append(contentsOf: String(member.instant.epochSeconds).utf8)
    out.append(contentsOf: "}}\n".utf8)
  }

  /// The stats line; a per-account partial's (`accounts` set) counts its accounts first.
  static func appendStats(_ stats: RunStats, groups: Int, accounts: Int? = nil, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"stats\":{".utf8)
    if let accounts { out.append(contentsOf: "\"accounts\":\(accounts),".utf8) }
    out.append(contentsOf: "\"groups\":\(groups),\"lines\":\(stats.lines),".utf8)
    out.append(contentsOf: "\"accepted\":\(stats.accepted),\"rejected\":\(stats.rejected),\"rejectedByReason\":{".utf8)
    for (index, entry) in stats.rejectedByReason.filter({ $0.value != 0 }).sorted(by: { $0.key < $1.key })
      .enumerated()
    {
      if index > 0 { out.append(.comma) }
      JSONEscaping.appendString(entry.key.code, to: &out)
      out.append(.colon)
      out.append(contentsOf: String(entry.value).utf8)
    }
    out.append(contentsOf: "},\"duplicates\":\(stats.duplicates),".utf8)
    out.append(contentsOf: "\"bytesRead\":\(stats.bytesRead),\"bytesDecoded\":\(stats.bytesDecoded)}}\n".utf8)
  }
}

extension PartialState {
  /// Writes the partial in the partial format (Formats, "Partial states";
  /// what `group --emit partial` writes), handing the buffer to `flush`
  /// whenever it passes `BufferFlushing.threshold` bytes and once at the end
  /// (see `ReportRenderer.render(_:format:options:flush:)` for the contract).
  /// The same state writes the same bytes on every run.
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members;
  ///   memory O(flush threshold + one group).
  public func write<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    try PartialStateWriter.write(self, flush: flush)
  }

  /// The whole partial in the partial format as one byte array (for tests,
  /// and states small enough to hold twice).
  public func serialized() -> [UInt8] {
    PartialStateWriter.writeToBytes(self)
  }
}
