/// Reads partial states (the format `PartialStateWriter` documents) and merges
/// them into one `PartialState`, checking as it goes.
///
/// Each input holds one or more partials one after another (`cat` of several
/// partial files, or the collected output of many shards, is itself a valid
/// input). Every partial must be complete — header, groups with their
/// members, and the final `stats` line whose group count and accounting
/// agree — and folded with the same settings as the first one read;
/// otherwise reading stops with an error that names the file and line.
///
/// ```swift
/// let merged = try PartialMerger.merge(paths: ["part-0.jsonl", "part-1.jsonl.gz"])
/// let bytes = ReportRenderer.renderToBytes(merged.report(), format: .json)
/// ```
public final class PartialMerger {
  /// Everything merged so far; `nil` before the first header.
  public private(set) var merged: PartialState?
  /// How many complete partials were merged.
  public private(set) var partialCount = 0
  /// Where the first header, whose settings every other partial must match, was read.
  private var reference = (file: "", line: 0)

  public init() {}

  /// Reads every partial in the files (`-` is standard input; gzip is detected
  /// from the content), in order, and returns their merge.
  ///
  /// Every file is checked to open before any is read.
  /// - Complexity: O(input bytes + g log N) for g group lines; memory O(merged
  ///   groups and members + the longest line).
  public static func merge(paths: [String]) throws(PartialStateError) -> PartialState {
    let merger = PartialMerger()
    try merger.read(paths: paths)
    guard let merged = merger.merged else {
      throw .malformed(file: "-", line: 1, detail: "no input was given")
    }
    return merged
  }

  /// Reads every partial in the files (`-` is standard input; gzip is detected
  /// from the content), in order, and merges them in.
  ///
  /// Every file is checked to open before any is read, so a missing file
  /// fails at once.
  public func read(paths: [String]) throws(PartialStateError) {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.open(path: path)
      } catch {
        throw .input(error)
      }
    }
    for path in paths {
      let source: any ByteSource
      do throws(InputError) {
        source = try InputOpener.open(path: path)
      } catch {
        throw .input(error)
      }
      try read(source)
    }
  }

  /// Where in a partial the reader is.
  private enum Phase {
    /// Before a header (at the start, or after a partial's stats line).
    case header
    /// After the header on `start`, between groups; `groups` group lines and
    /// `counted` transactions so far.
    case groups(start: Int, groups: Int, counted: Int)
    /// Reading the `remaining` member lines of `group` (its line: `groupLine`).
    case members(start: Int, groups: Int, counted: Int, group: PartialGroup, remaining: Int, groupLine: Int)
  }

  /// Reads every partial in `source` and merges it in.
  ///
  /// - Throws: `PartialStateError` for a read error, a malformed or truncated
  ///   partial, an unsupported version, settings that differ from the first
  ///   partial's, or an overflowing count or total.
  public func read(_ source: any ByteSource) throws(PartialStateError) {
    let reader = PartialLineReader(source)
    let file = source.name
    var phase = Phase.header
    var partialsHere = 0
    while true {
      let next: [UInt8]?
      do throws(InputError) {
        next = try reader.next()
      } catch {
        throw .input(error)
      }
      guard let bytes = next else { break }
      let line = reader.lineNumber
      if bytes.allSatisfy(\.isJSONWhitespace) { continue }
      do throws(PartialLineError) {
        let parsed: (kind: String, body: PartialFields)
        do throws(PartialLineError) {
          parsed = try Self.parseLine(bytes)
        } catch {
          // The first line of an input that is not JSON of the right shape: say what was expected.
          if case .header = phase, partialsHere == 0, case .malformed(let detail) = error {
            throw .malformed("not a TxFold partial state: the first line is not a 'txfoldPartial' header (\(detail))")
          }
          throw error
        }
        phase = try apply(kind: parsed.kind, body: parsed.body, phase: phase, file: file, line: line)
        if case .header = phase { partialsHere += 1 }
      } catch {
        switch error {
        case .malformed(let detail): throw .malformed(file: file, line: line, detail: detail)
        case .failure(let failure): throw failure
        }
      }
    }
    switch phase {
    case .header:
      if partialsHere == 0 {
        throw .malformed(
          file: file, line: max(1, reader.lineNumber),
          detail: "the input is empty, not a TxFold partial state (expected a 'txfoldPartial' header line)")
      }
    case .groups(let start, _, _), .members(let start, _, _, _, _, _):
      throw .malformed(
        file: file, line: reader.lineNumber,
        detail: "the partial that starts on line \(start) ends without its 'stats' line: the input is truncated")
    }
  }

  /// Why one line could not be taken: a problem with the line itself (the
  /// caller adds file and line) or a finished error.
  enum PartialLineError: Error {
    case malformed(String)
    case failure(PartialStateError)
  }

  /// Splits a line into its kind (the one key) and body (an object).
  static func parseLine(_ bytes: [UInt8]) throws(PartialLineError) -> (String, PartialFields) {
    let value: PartialJSON.Value
    do throws(PartialJSON.SyntaxError) {
      value = try bytes.withUnsafeBufferPointer { (buffer) throws(PartialJSON.SyntaxError) in
        try PartialJSON.parse(buffer)
      }
    } catch {
      throw .malformed("invalid JSON at byte \(error.offset + 1): \(error.detail)")
    }
    guard case .object(let pairs) = value, pairs.count == 1, let only = pairs.first else {
      throw .malformed("a line must be an object with one key ('txfoldPartial', 'group', 'member' or 'stats')")
    }
    return (only.key, try PartialFields(only.value, in: "'\(only.key)'"))
  }

  private func apply(
    kind: String, body: PartialFields, phase: Phase, file: String, line: Int
  ) throws(PartialLineError) -> Phase {
    switch (phase, kind) {
    case (.header, "txfoldPartial"):
      try acceptHeader(body, file: file, line: line)
      return .groups(start: line, groups: 0, counted: 0)
    case (.header, _):
      throw .malformed(
        line == 1
          ? "not a TxFold partial state: the first line is a '\(kind)' line, not the 'txfoldPartial' header"
          : "expected a 'txfoldPartial' header after the previous partial's 'stats' line, found a '\(kind)' line")
    case (.groups(let start, let groups, let counted), "group"):
      guard let state = merged else { throw .malformed("a 'group' line before any header") }
      let (group, memberCount) = try Self.group(body, settings: state.settings)
      let (total, overflow) = counted.addingReportingOverflow(group.count)
      if overflow { throw .malformed("the counts of this partial's groups overflow") }
      if memberCount == 0 {
        try mergeGroup(group)
        return .groups(start: start, groups: groups + 1, counted: total)
      }
      return .members(
        start: start, groups: groups + 1, counted: total, group: group, remaining: memberCount, groupLine: line)
    case (.groups(_, let groups, let counted), "stats"):
      try acceptStats(body, groups: groups, counted: counted)
      partialCount += 1
      return .header
    case (.groups, _):
      throw .malformed("expected a 'group' or 'stats' line, found a '\(kind)' line")
    case (.members(let start, let groups, let counted, var group, let remaining, let groupLine), "member"):
      guard let state = merged else { throw .malformed("a 'member' line before any header") }
      let member = try Self.member(body, zoned: state.settings.timezone != nil)
      guard group.totals.contains(where: { $0.currency[...] == member.currency }) else {
        throw .malformed(
          "the member's currency '\(String(decoding: member.currency, as: UTF8.self))' has no total in its group "
            + "(line \(groupLine))")
      }
      guard member.instant.compareTotal(group.latest) <= 0 else {
        throw .malformed("the member is more recent than its group's 'latest' (line \(groupLine))")
      }
      group.members.append(member)
      if remaining > 1 {
        return .members(
          start: start, groups: groups, counted: counted, group: group, remaining: remaining - 1, groupLine: groupLine)
      }
      try mergeGroup(group)
      return .groups(start: start, groups: groups, counted: counted)
    case (.members(_, _, _, _, let remaining, let groupLine), _):
      throw .malformed(
        "expected \(remaining) more 'member' line\(remaining == 1 ? "" : "s") for the group on line \(groupLine), "
          + "found a '\(kind)' line")
    }
  }

  private func mergeGroup(_ group: PartialGroup) throws(PartialLineError) {
    guard let state = merged else { return }
    do throws(PartialGroup.MergeError) {
      try state.table.merge(group)
    } catch {
      throw .failure(.overflow(what: error.what))
    }
  }

  private func acceptHeader(_ body: PartialFields, file: String, line: Int) throws(PartialLineError) {
    let version = try body.value("version")
    guard case .number(let text) = version, text == Array(String(PartialState.formatVersion).utf8) else {
      let shown: String
      switch version {
      case .number(let text), .string(let text): shown = String(decoding: text, as: UTF8.self)
      default: shown = version.typeName
      }
      throw .failure(.unsupportedVersion(file: file, line: line, version: shown))
    }
    try body.allowOnly([
      "version", "memberLimit", "schema", "timezone", "dedupe", "maxRecordBytes", "allowTrailingCommas",
    ])
    let memberLimit: Int
    if case .string(let text) = try body.value("memberLimit"), text == Array("all".utf8) {
      memberLimit = Int.max
    } else {
      memberLimit = try body.integer("memberLimit")
    }
    guard try body.bool("dedupe") == false else {
      throw .malformed("a partial folded with --dedupe cannot be merged ('dedupe' must be false)")
    }
    let timezone: String?
    if case .null = try body.value("timezone") {
      timezone = nil
    } else {
      timezone = String(decoding: try body.string("timezone"), as: UTF8.self)
    }
    let settings = PartialSettings(
      memberLimit: memberLimit, schema: String(decoding: try body.string("schema"), as: UTF8.self),
      timezone: timezone, maxRecordBytes: try body.integer("maxRecordBytes"),
      allowTrailingCommas: try body.bool("allowTrailingCommas"))
    guard let state = merged else {
      merged = PartialState(settings: settings)
      reference = (file, line)
      return
    }
    if let difference = settings.difference(from: state.settings) {
      throw .failure(
        .mismatch(
          setting: difference.setting, file: file, line: line, value: difference.mine, referenceFile: reference.file,
          referenceLine: reference.line, referenceValue: difference.theirs))
    }
  }

  private func acceptStats(_ body: PartialFields, groups: Int, counted: Int) throws(PartialLineError) {
    try body.allowOnly([
      "groups", "lines", "accepted", "rejected", "rejectedByReason", "duplicates", "bytesRead", "bytesDecoded",
    ])
    let declaredGroups = try body.integer("groups")
    guard declaredGroups == groups else {
      throw .malformed("the 'stats' line counts \(declaredGroups) groups but the partial has \(groups)")
    }
    var stats = RunStats()
    stats.lines = try body.integer("lines")
    stats.accepted = try body.integer("accepted")
    stats.rejected = try body.integer("rejected")
    stats.duplicates = try body.integer("duplicates")
    stats.bytesRead = Int64(try body.integer("bytesRead"))
    stats.bytesDecoded = Int64(try body.integer("bytesDecoded"))
    let reasons = try body.object("rejectedByReason")
    var byReason = 0
    for code in reasons.pairs.map(\.key) {
      guard let reason = RejectReason(rawValue: code) else {
        throw .malformed("unknown reject reason '\(code)' in 'rejectedByReason'")
      }
      let count = try reasons.integer(code)
      stats.rejectedByReason[reason] = count
      byReason = byReason.addingReportingOverflow(count).overflow ? Int.max : byReason + count
    }
    guard stats.lines.subtractingReportingOverflow(stats.accepted) == (stats.rejected, false) else {
      throw .malformed(
        "'lines' (\(stats.lines)) is not 'accepted' (\(stats.accepted)) plus 'rejected' (\(stats.rejected))")
    }
    guard byReason == stats.rejected else {
      throw .malformed("'rejectedByReason' adds up to \(byReason), not 'rejected' (\(stats.rejected))")
    }
    guard stats.accepted == counted else {
      throw .malformed("'accepted' is \(stats.accepted) but the partial's group counts add up to \(counted)")
    }
    guard let state = merged else { return }
    do throws(PartialStateError) {
      try state.add(stats: stats)
    } catch {
      throw .failure(error)
    }
  }

  /// A group line, and how many member lines follow it.
  static func group(_ body: PartialFields, settings: PartialSettings) throws(PartialLineError) -> (PartialGroup, Int) {
    try body.allowOnly([
      "state", "date", "creditDebitIndicator", "count", "totals", "latest", "latestEpochSeconds", "members",
    ])
    let state = try body.string("state")
    guard !state.isEmpty else { throw .malformed("'state' is empty") }
    let dateText = try body.string("date")
    guard let date = dateText.withUnsafeBufferPointer({ TimestampParser.parse($0) }), date.style == .dateOnly else {
      throw .malformed("'date' is not a date: '\(String(decoding: dateText, as: UTF8.self))'")
    }
    let indicatorText = String(decoding: try body.string("creditDebitIndicator"), as: UTF8.self)
    guard let indicator = CreditDebitIndicator(code: indicatorText) else {
      throw .malformed("'creditDebitIndicator' must be CRDT or DBIT, not '\(indicatorText)'")
    }
    let count = try body.integer("count")
    guard count >= 1 else { throw .malformed("'count' must be at least 1") }
    guard case .array(let totalValues) = try body.value("totals"), !totalValues.isEmpty else {
      throw .malformed("'totals' must be a non-empty array")
    }
    var totals: [PartialGroup.Total] = []
    for value in totalValues {
      let total = try PartialFields(value, in: "a total")
      try total.allowOnly(["currency", "amount"])
      let currency = try total.string("currency")
      guard !currency.isEmpty else { throw .malformed("a total's 'currency' is empty") }
      guard !totals.contains(where: { $0.currency == currency }) else {
        throw .malformed("two totals in '\(String(decoding: currency, as: UTF8.self))'")
      }
      totals.append(PartialGroup.Total(currency: currency, sum: try total.magnitude("amount")))
    }
    let latest = try timestamp(
      body.string("latest"), epochSeconds: body.integer("latestEpochSeconds"), zoned: settings.timezone != nil,
      field: "latest")
    let members = try body.integer("members")
    guard members <= min(count, settings.memberLimit) else {
      throw .malformed(
        "'members' (\(members)) is more than 'count' or the member limit (\(PartialSettings.text(memberLimit: settings.memberLimit)))"
      )
    }
    var group = PartialGroup(
      state: state, day: date.writtenDay, indicator: indicator, count: count, totals: totals, latest: latest,
      members: [])
    group.members.reserveCapacity(members)
    return (group, members)
  }

  /// A member line.
  static func member(_ body: PartialFields, zoned: Bool) throws(PartialLineError) -> KeptMember {
    try body.allowOnly(["id", "description", "amount", "currency", "instant", "epochSeconds"])
    let currency = try body.string("currency")
    guard !currency.isEmpty else { throw .malformed("'currency' is empty") }
    let description: [UInt8]? = body.has("description") ? try body.string("description") : nil
    return KeptMember(
      instant: try timestamp(
        body.string("instant"), epochSeconds: body.integer("epochSeconds"), zoned: zoned, field: "instant"),
      amount: try body.magnitude("amount"), id: try body.string("id"), currency: currency, description: description)
  }

  /// A timestamp from its written form and its instant.
  ///
  /// A timestamp that carries an offset, or any timestamp without
  /// `--timezone`, has one instant, which must be the one given. An
  /// offset-less one under `--timezone` was placed in that zone by the run
  /// that wrote it; its instant is taken as given (so a merge never depends
  /// on this machine's time-zone data), within the ±26 hours any zone allows.
  static func timestamp(_ text: [UInt8], epochSeconds: Int, zoned: Bool, field: String) throws(PartialLineError)
    -> Timestamp
  {
    guard var stamp = text.withUnsafeBufferPointer({ TimestampParser.parse($0) }) else {
      throw .malformed("'\(field)' is not a timestamp: '\(String(decoding: text, as: UTF8.self))'")
    }
    let given = Int64(epochSeconds)
    if stamp.hasOffset || !zoned {
      guard stamp.epochSeconds == given else {
        throw .malformed(
          "the instant of '\(field)' '\(String(decoding: text, as: UTF8.self))' is \(stamp.epochSeconds), not \(given)")
      }
    } else {
      guard (stamp.epochSeconds - given).magnitude <= 26 * 3600 else {
        throw .malformed(
          "the instant \(given) is more than 26 hours from '\(field)' '\(String(decoding: text, as: UTF8.self))'")
      }
      stamp.epochSeconds = given
    }
    return stamp
  }
}
