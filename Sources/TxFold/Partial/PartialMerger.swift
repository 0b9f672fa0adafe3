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
  /// The partial's `--timezone`, to check that timestamps fall on their group's
  /// day by the fold's rule; `nil` when this machine does not know the zone.
  private var checkingZone: ZoneResolver? = .asWritten
  /// Where each input fingerprint merged so far came from.
  private var inputsSeen: [InputFingerprint: (file: String, line: Int)] = [:]
  /// The fingerprints in the header of the partial being read.
  private var currentInputs: [InputFingerprint] = []

  /// Creates a merger with nothing merged yet.
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
  /// fails at once (a FIFO by `stat(2)` only: `FileSource.openToCheck`).
  public func read(paths: [String]) throws(PartialStateError) {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.openToCheck(path: path)
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
    /// Between groups of the partial `progress` describes.
    case groups(PartialProgress)
    /// Reading the `remaining` member lines of `group` (its line: `groupLine`).
    case members(PartialProgress, group: PartialGroup, remaining: Int, groupLine: Int)
  }

  /// Reads every partial in `source` and merges it in.
  ///
  /// - Throws: `PartialStateError` for a read error, a malformed or truncated
  ///   partial, an unsupported version, settings that differ from the first
  ///   partial's, or an overflowing count or total.
  public func read(_ source: any ByteSource) throws(PartialStateError) {
    let reader = PartialLineReader(source)
    let file = source.name
    try Self.refuseState(reader)
    var phase = Phase.header
    var partialsHere = 0
    while let bytes = try reader.nextNonBlank() {
      let line = reader.lineNumber
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
    case .groups(let progress), .members(let progress, _, _, _):
      throw .malformed(
        file: file, line: reader.lineNumber,
        detail:
          "the partial that starts on line \(progress.start) ends without its 'stats' line: the input is truncated")
    }
  }

  /// Refuses a state file (`--state-out`'s) given where partials are read, from its first bytes,
  /// naming what it is and where it goes: read as lines, it would be "malformed" at best.
  static func refuseState(_ reader: PartialLineReader) throws(PartialStateError) {
    guard TxFoldFileFormat.detect(try reader.firstBytes(TxFoldFileFormat.stateMagic.count)) == .state else { return }
    throw .malformed(file: reader.source.name, line: 1, detail: stateNotPartial)
  }
  /// What a state file given to the merge is told (the CLI words it with its flags).
  static let stateNotPartial =
    "it is a TxFold state file (NightlyState.write), not a partial state: give it as the previous state "
    + "(NightlyState(previous:)), not to the merge"

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
      return .groups(PartialProgress(start: line))
    case (.header, "txfoldAccountPartial"):
      throw .malformed("a per-account partial ('txfoldAccountPartial'): merge it per account (runPerAccountPartial)")
    case (.header, _):
      throw .malformed(
        line == 1
          ? "not a TxFold partial state: the first line is a '\(kind)' line, not the 'txfoldPartial' header"
          : "expected a 'txfoldPartial' header after the previous partial's 'stats' line, found a '\(kind)' line")
    case (.groups(var progress), "group"):
      guard let state = merged else { throw .malformed("a 'group' line before any header") }
      let (group, memberCount) = try Self.group(body, settings: state.settings)
      try checkDay(of: group.latest, in: group, field: "latest")
      try progress.add(group, line: line)
      if memberCount == 0 {
        try mergeGroup(group)
        return .groups(progress)
      }
      return .members(progress, group: group, remaining: memberCount, groupLine: line)
    case (.groups(let progress), "stats"):
      try acceptStats(body, groups: progress.groups, counted: progress.counted, file: file, line: line)
      partialCount += 1
      return .header
    case (.groups, _):
      throw .malformed("expected a 'group' or 'stats' line, found a '\(kind)' line")
    case (.members(let progress, var group, let remaining, let groupLine), "member"):
      guard let state = merged else { throw .malformed("a 'member' line before any header") }
      let member = try Self.member(body, zoned: state.settings.timezone != nil)
      try Self.check(member, in: group, groupLine: groupLine)
      try checkDay(of: member.instant, in: group, field: "the member's instant")
      group.members.append(member)
      if remaining > 1 {
        return .members(progress, group: group, remaining: remaining - 1, groupLine: groupLine)
      }
      try Self.checkComplete(group, line: groupLine)
      try mergeGroup(group)
      return .groups(progress)
    case (.members(_, _, let remaining, let groupLine), _):
      throw .malformed(
        "expected \(remaining) more 'member' line\(remaining == 1 ? "" : "s") for the group on line \(groupLine), "
          + "found a '\(kind)' line")
    }
  }

  /// Checks a member against its group (whose members so far are in
  /// `group.members`): a currency of its totals, no later than `latest`, in order.
  static func check(_ member: KeptMember, in group: PartialGroup, groupLine: Int) throws(PartialLineError) {
    guard group.totals.contains(where: { $0.currency[...] == member.currency }) else {
      throw .malformed(
        "the member's currency '\(String(decoding: member.currency, as: UTF8.self))' has no total in its group "
          + "(line \(groupLine))")
    }
    guard member.instant.compareTotal(group.latest) <= 0 else {
      throw .malformed("the member is more recent than its group's 'latest' (line \(groupLine))")
    }
    if let previous = group.members.last, previous.compareReportOrder(member) > 0 {
      throw .malformed(
        "members out of order: a group's members come most recent first, then by id (group on line \(groupLine))")
    }
  }

  /// Checks that `stamp` belongs to `group`'s day by the rule the fold uses:
  /// in the partial's `--timezone` when it has one, else the date as written.
  private func checkDay(of stamp: Timestamp, in group: PartialGroup, field: String) throws(PartialLineError) {
    try Self.checkDay(of: stamp, in: group, field: field, zone: checkingZone, timezone: merged?.settings.timezone)
  }

  /// `checkDay(of:in:field:)` for a partial whose `--timezone` is `timezone`,
  /// resolved here as `zone` (`nil` when this machine does not know it).
  static func checkDay(
    of stamp: Timestamp, in group: PartialGroup, field: String, zone: ZoneResolver?, timezone: String?
  ) throws(PartialLineError) {
    let day: CalendarDay
    if let zone {
      day = zone.day(of: stamp)
    } else {
      // The partial's zone is unknown on this machine: an offset-less time is
      // still on its written date; one with an offset is at most a zone's
      // offset (26 hours) plus its own (24 hours) away from it.
      if stamp.hasOffset && (Int(stamp.writtenDay.daysSinceEpoch) - Int(group.day.daysSinceEpoch)).magnitude <= 3 {
        return
      }
      day = stamp.writtenDay
    }
    guard day != group.day else { return }
    throw .malformed(
      "'date' is \(group.day) but \(field) '\(stamp)' falls on \(day)\(timezone.map { " in \($0)" } ?? "")")
  }

  /// A group whose members are all its transactions (`count` equals the
  /// member lines) must have the totals and the `latest` of those members.
  static func checkComplete(_ group: PartialGroup, line: Int) throws(PartialLineError) {
    guard group.members.count == group.count else { return }
    var sums: [PartialGroup.Total] = []
    for member in group.members {
      if let index = sums.firstIndex(where: { $0.currency[...] == member.currency }) {
        guard let sum = sums[index].sum.adding(member.amount) else { return }  // the merge reports the overflow
        sums[index].sum = sum
        sums[index].count += 1
      } else {
        sums.append(PartialGroup.Total(currency: Array(member.currency), sum: member.amount, count: 1))
      }
    }
    for total in group.totals {
      let computed = sums.first { $0.currency == total.currency }?.sum
      // Value and scale: a total prints with its scale, so `3839.9` for members of `1919.95` is edited
      // even though it is numerically equal (`ExactDecimal`'s `==` ignores the scale).
      guard let sum = computed, sum == total.sum && sum.scale == total.sum.scale else {
        let currency = String(decoding: total.currency, as: UTF8.self)
        throw .malformed(
          "the group on line \(line) lists all its \(group.count) members, whose \(currency) amounts add up to "
            + "\(computed?.description ?? "nothing"), but its total is \(total.sum)")
      }
      let members = sums.first { $0.currency == total.currency }?.count ?? 0
      guard members == total.count else {
        let currency = String(decoding: total.currency, as: UTF8.self)
        throw .malformed(
          "the group on line \(line) lists all its \(group.count) members, \(members) of them in \(currency), "
            + "but its \(currency) total counts \(total.count)")
      }
    }
    guard group.members.contains(where: { $0.instant.compareTotal(group.latest) == 0 }) else {
      throw .malformed(
        "the group on line \(line) lists all its \(group.count) members, but none of them is its 'latest' "
          + "'\(group.latest)'")
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
    let header = try Self.header(body, version: PartialState.formatVersion, file: file, line: line)
    currentInputs = header.inputs
    let settings = header.settings
    guard let state = merged else {
      merged = PartialState(settings: settings)
      reference = (file, line)
      checkingZone = settings.timezone.map { ZoneResolver(identifier: $0) } ?? .asWritten
      for input in currentInputs { inputsSeen[input] = (file, line) }
      return
    }
    if let difference = settings.difference(from: state.settings) {
      throw .failure(
        .mismatch(
          setting: difference.setting, file: file, line: line, value: difference.mine, referenceFile: reference.file,
          referenceLine: reference.line, referenceValue: difference.theirs))
    }
    for input in currentInputs {
      if let seen = inputsSeen[input] {
        throw .failure(
          .duplicateInput(
            file: file, line: line, referenceFile: seen.file, referenceLine: seen.line, input: input.description))
      }
    }
    for input in currentInputs { inputsSeen[input] = (file, line) }
  }

  /// A header's body (`txfoldPartial`, or `txfoldAccountPartial` with its
  /// `extraKeys`): the settings and input fingerprints, after checking the version.
  static func header(
    _ body: PartialFields, version expected: Int, extraKeys: [String] = [], file: String, line: Int
  ) throws(PartialLineError) -> (settings: PartialSettings, inputs: [InputFingerprint]) {
    let version = try body.value("version")
    guard case .number(let text) = version, text == Array(String(expected).utf8) else {
      let shown: String
      switch version {
      case .number(let text): shown = String(decoding: text, as: UTF8.self)
      // A string "3" is not the number 3: say which it was, or the message would read "version 3 … reads version 3".
      case .string(let text): shown = "\"\(String(decoding: text, as: UTF8.self))\" (a string, not a number)"
      default: shown = version.typeName
      }
      throw .failure(.unsupportedVersion(file: file, line: line, version: shown))
    }
    try body.allowOnly(
      Set([
        "version", "memberLimit", "schema", "timezone", "dedupe", "maxRecordBytes", "allowTrailingCommas", "inputs",
      ]).union(extraKeys))
    let inputs = try Self.inputs(body)
    let memberLimit: Int
    if case .string(let text) = try body.value("memberLimit"), text == Array("all".utf8) {
      memberLimit = Int.max
    } else {
      memberLimit = try body.integer("memberLimit")
    }
    guard try body.bool("dedupe") == false else {
      throw .malformed("a partial folded with dedupe cannot be merged ('dedupe' must be false)")
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
    return (settings, inputs)
  }

  private func acceptStats(
    _ body: PartialFields, groups: Int, counted: Int, file: String, line: Int
  ) throws(PartialLineError) {
    let stats = try Self.stats(body, groups: groups, counted: counted, hasInputs: !currentInputs.isEmpty)
    guard let state = merged else { return }
    state.add(inputs: currentInputs)
    do throws(PartialStateError) {
      try state.add(stats: stats)
    } catch {
      throw .failure(error)
    }
  }

  /// A `stats` line's body, checked against what the partial held: `groups`
  /// group lines whose counts add up to `counted`, and whether its header
  /// listed input fingerprints.
  static func stats(
    _ body: PartialFields, groups: Int, counted: Int, hasInputs: Bool, extraKeys: [String] = []
  ) throws(PartialLineError) -> RunStats {
    try body.allowOnly(
      Set([
        "groups", "lines", "accepted", "rejected", "rejectedByReason", "duplicates", "bytesRead", "bytesDecoded",
      ]).union(extraKeys))
    let declaredGroups = try body.integer("groups")
    guard declaredGroups == groups else {
      throw .malformed("the 'stats' line counts \(declaredGroups) groups but the partial has \(groups)")
    }
    var stats = RunStats()
    stats.lines = try body.integer("lines")
    stats.accepted = try body.integer("accepted")
    stats.rejected = try body.integer("rejected")
    stats.duplicates = try body.integer("duplicates")
    // Partials are folded without dedupe (the header says so), so none can be counted.
    guard stats.duplicates == 0 else {
      throw .malformed("'duplicates' is \(stats.duplicates) in a partial folded without dedupe; it must be 0")
    }
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
    guard (stats.lines == 0) == !hasInputs else {
      throw .malformed(
        stats.lines == 0
          ? "a partial without records lists input fingerprints in its header"
          : "the partial has records but its header lists no input fingerprint ('inputs')")
    }
    return stats
  }

  /// The header's `inputs`: fingerprints `{"bytes": N, "xxh64": "16 hex digits"}`,
  /// strictly ascending by bytes, then hash.
  static func inputs(_ body: PartialFields) throws(PartialLineError) -> [InputFingerprint] {
    guard case .array(let values) = try body.value("inputs") else {
      throw .malformed("'inputs' must be an array of input fingerprints")
    }
    var inputs: [InputFingerprint] = []
    for value in values {
      let fields = try PartialFields(value, in: "an input fingerprint")
      try fields.allowOnly(["bytes", "xxh64"])
      let bytes = try fields.integer("bytes")
      let text = try fields.string("xxh64")
      guard text.count == 16, text.allSatisfy({ ($0 &- .zero) < 10 || ($0 &- UInt8(ascii: "a")) < 6 }),
        let hash = UInt64(String(decoding: text, as: UTF8.self), radix: 16)
      else {
        throw .malformed(
          "'xxh64' must be 16 lower-case hexadecimal digits, not '\(String(decoding: text, as: UTF8.self))'")
      }
      let input = InputFingerprint(bytes: Int64(bytes), hash: hash)
      if let last = inputs.last, !(last < input) {
        throw .malformed("'inputs' must be sorted by bytes, then hash, each once")
      }
      inputs.append(input)
    }
    return inputs
  }

  /// A group line, and how many member lines follow it.
  static func group(_ body: PartialFields, settings: PartialSettings) throws(PartialLineError) -> (PartialGroup, Int) {
    try body.allowOnly([
      "state", "date", "creditDebitIndicator", "count", "totals", "latest", "latestEpochSeconds", "members",
    ])
    let state = try body.string("state")
    guard !state.isEmpty else { throw .malformed("'state' is empty") }
    guard !state.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
      throw .malformed(
        "'state' '\(String(decoding: state, as: UTF8.self))' is not upper-cased, as the fold writes states")
    }
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
    var counted = 0
    for value in totalValues {
      let total = try PartialFields(value, in: "a total")
      try total.allowOnly(["currency", "count", "amount"])
      // Upper-cased as the fold does (a partial written before codes were upper-cased may hold `eur`).
      let currency = try total.string("currency").map(ByteStringInterner.upper)
      guard !currency.isEmpty else { throw .malformed("a total's 'currency' is empty") }
      guard !totals.contains(where: { $0.currency == currency }) else {
        throw .malformed("two totals in '\(String(decoding: currency, as: UTF8.self))'")
      }
      let currencyCount = try total.integer("count")
      guard currencyCount >= 1 else { throw .malformed("a total's 'count' must be at least 1") }
      let (sum, overflow) = counted.addingReportingOverflow(currencyCount)
      guard !overflow else { throw .malformed("the totals' counts are out of range") }
      counted = sum
      totals.append(PartialGroup.Total(currency: currency, sum: try total.magnitude("amount"), count: currencyCount))
    }
    guard counted == count else {
      throw .malformed("the totals' counts add up to \(counted), but the group's 'count' is \(count)")
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
    let currency = try body.string("currency").map(ByteStringInterner.upper)
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
      stamp._epochSeconds = given
    }
    return stamp
  }
}
