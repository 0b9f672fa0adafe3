/// Writes and reads account blocks: an `account` line, then the account's
/// group and member lines as the partial format writes them (Documentation/Formats.md,
/// "Per-account partials").
///
/// ```
/// {"account":{"id":"A0000000001","groups":1}}
/// {"group":{"state":"COMPLETED","date":"2024-05-17",…,"members":1}}
/// {"member":{"id":"7","amount":"12.50","currency":"EUR",…}}
/// ```
enum AccountBlocks {
  /// Appends the `account` line that opens a block of `groups` groups.
  static func appendAccountLine(_ account: [UInt8], groups: Int, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"account\":{\"id\":".utf8)
    JSONEscaping.appendString(String(decoding: account, as: UTF8.self), to: &out)
    out.append(contentsOf: ",\"groups\":\(groups)}}\n".utf8)
  }

  /// Appends a whole block: the `account` line, then each group's lines.
  static func appendBlock<E: Error>(
    account: [UInt8], table: GroupTable, groups: ArraySlice<Int>, to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    appendAccountLine(account, groups: groups.count, to: &out)
    try table.forEachPartialGroup(of: groups) { (group) throws(E) in
      PartialStateWriter.appendGroup(group, to: &out)
      for member in group.members {
        PartialStateWriter.appendMember(member, to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
      try BufferFlushing.flushIfFull(&out, flush)
    }
  }
}

/// Reads account blocks from a byte source, one at a time, in the order
/// written; stops at the end or at a `stats` line (left in `stats`).
///
/// Memory: one account's groups and members, and the longest line.
final class AccountBlockReader {
  private let lines: PartialLineReader
  /// The settings groups are read with (a partial's own, once its header is read).
  private var settings: PartialSettings
  /// The source's name, for messages.
  let name: String
  /// The body of the `stats` line that ended the blocks, if one did.
  private(set) var stats: PartialFields?
  /// The line number the last block started on.
  private(set) var blockLine = 0
  /// What was read so far, for the checks of a partial's `stats` line.
  private(set) var accountsRead = 0
  private(set) var groupsRead = 0
  private(set) var countedRead = 0
  /// The groups of the block being read: each key once, in the partial's order.
  private var blockProgress = PartialProgress(start: 0)
  /// The partial's `--timezone`, to check that timestamps fall on their group's
  /// day by the fold's rule; `nil` when this machine does not know the zone.
  private var checkingZone: ZoneResolver? = .asWritten

  init(_ source: any ByteSource, settings: PartialSettings) {
    lines = PartialLineReader(source)
    self.settings = settings
    name = source.name
  }

  /// Reads a per-account partial's header line (its first line): the
  /// settings, the inputs' fingerprints and where the accounts came from.
  func readHeader() throws(PartialStateError) -> AccountPartialHeader {
    try PartialMerger.refuseState(lines)
    let first: (String, PartialFields)?
    do throws(PartialStateError) {
      first = try nextLine()
    } catch {
      if case .malformed(let file, let line, let detail) = error, line <= 1 {
        throw .malformed(
          file: file, line: line,
          detail: "not a TxFold per-account partial: the first line is not a 'txfoldAccountPartial' header (\(detail))")
      }
      throw error
    }
    guard let (kind, body) = first else {
      throw .malformed(
        file: name, line: max(1, lines.lineNumber),
        detail: "the input is empty, not a TxFold per-account partial (expected a 'txfoldAccountPartial' header line)")
    }
    guard kind == "txfoldAccountPartial" else {
      let hint =
        kind == "txfoldPartial"
        ? "a partial of a whole report ('txfoldPartial'), not per account: merge it with PartialMerger, not per account"
        : "not a TxFold per-account partial: the first line is a '\(kind)' line, not the 'txfoldAccountPartial' header"
      throw .malformed(file: name, line: lines.lineNumber, detail: hint)
    }
    let line = lines.lineNumber
    do throws(PartialMerger.PartialLineError) {
      let (settings, inputs) = try PartialMerger.header(
        body, version: AccountPartialWriter.formatVersion, extraKeys: ["accounts"], file: name, line: line)
      let accounts = String(decoding: try body.string("accounts"), as: UTF8.self)
      self.settings = settings
      checkingZone = settings.timezone.map { ZoneResolver(identifier: $0) } ?? .asWritten
      return AccountPartialHeader(settings: settings, inputs: inputs, accounts: accounts, file: name, line: line)
    } catch {
      throw Self.located(error, file: name, line: line)
    }
  }

  /// After the last block: the partial's `stats` line, checked against the
  /// accounts, groups and counts read (`hasInputs`: its header listed inputs).
  func finish(hasInputs: Bool) throws(PartialStateError) -> RunStats {
    guard let body = stats else {
      throw .malformed(
        file: name, line: lines.lineNumber,
        detail: "the per-account partial ends without its 'stats' line: the input is truncated")
    }
    do throws(PartialMerger.PartialLineError) {
      let result = try PartialMerger.stats(
        body, groups: groupsRead, counted: countedRead, hasInputs: hasInputs, extraKeys: ["accounts"])
      let declared = try body.integer("accounts")
      guard declared == accountsRead else {
        throw .malformed("the 'stats' line counts \(declared) accounts but the partial has \(accountsRead)")
      }
      // Nothing may follow the stats line.
      if let (kind, _) = try nextLineInBlock() {
        throw .malformed("a '\(kind)' line after the 'stats' line; give each per-account partial as its own input")
      }
      return result
    } catch {
      throw Self.located(error, file: name, line: lines.lineNumber)
    }
  }

  /// The next block's `account` line: its id and how many groups follow
  /// (read them with `nextGroup()`); `nil` at the end or a `stats` line.
  func nextAccount() throws(PartialStateError) -> (account: [UInt8], groups: Int)? {
    guard let (kind, body) = try nextLine() else { return nil }
    do throws(PartialMerger.PartialLineError) {
      switch kind {
      case "stats":
        stats = body
        return nil
      case "account":
        blockLine = lines.lineNumber
        try body.allowOnly(["id", "groups"])
        let account = try body.string("id")
        guard !account.isEmpty else { throw .malformed("the account's 'id' is empty") }
        let groupCount = try body.integer("groups")
        guard groupCount >= 1 else { throw .malformed("an account has at least one group") }
        accountsRead += 1
        blockProgress = PartialProgress(start: blockLine)
        return (account, groupCount)
      default:
        throw .malformed("expected an 'account' or 'stats' line, found a '\(kind)' line")
      }
    } catch {
      throw Self.located(error, file: name, line: lines.lineNumber)
    }
  }

  /// The next group of the block whose `account` line was read last.
  func nextGroup() throws(PartialStateError) -> PartialGroup {
    do throws(PartialMerger.PartialLineError) {
      return try readGroup()
    } catch {
      throw Self.located(error, file: name, line: lines.lineNumber)
    }
  }

  /// A group line and its member lines.
  private func readGroup() throws(PartialMerger.PartialLineError) -> PartialGroup {
    guard let (kind, body) = try nextLineInBlock(), kind == "group" else {
      throw .malformed("expected a 'group' line of the account on line \(blockLine)")
    }
    let groupLine = lines.lineNumber
    var (group, memberCount) = try PartialMerger.group(body, settings: settings)
    // The checks a whole report's partial gets (`PartialMerger.apply`), within the account.
    try blockProgress.add(group, line: groupLine)
    try checkDay(of: group.latest, in: group, field: "latest")
    for _ in 0..<memberCount {
      guard let (kind, body) = try nextLineInBlock(), kind == "member" else {
        throw .malformed("expected \(memberCount) 'member' lines after the group's line")
      }
      let member = try PartialMerger.member(body, zoned: settings.timezone != nil)
      try PartialMerger.check(member, in: group, groupLine: groupLine)
      try checkDay(of: member.instant, in: group, field: "the member's instant")
      group.members.append(member)
    }
    try PartialMerger.checkComplete(group, line: groupLine)
    groupsRead += 1
    let (counted, overflow) = countedRead.addingReportingOverflow(group.count)
    guard !overflow else { throw .failure(.overflow(what: "The number of accepted records")) }
    countedRead = counted
    return group
  }

  private func checkDay(of stamp: Timestamp, in group: PartialGroup, field: String)
    throws(PartialMerger.PartialLineError)
  {
    try PartialMerger.checkDay(of: stamp, in: group, field: field, zone: checkingZone, timezone: settings.timezone)
  }

  private func nextLineInBlock() throws(PartialMerger.PartialLineError) -> (String, PartialFields)? {
    do throws(PartialStateError) {
      return try nextLine()
    } catch {
      throw .failure(error)
    }
  }

  /// The next non-blank line split into its kind and body.
  private func nextLine() throws(PartialStateError) -> (String, PartialFields)? {
    guard let bytes = try lines.nextNonBlank() else { return nil }
    do throws(PartialMerger.PartialLineError) {
      return try PartialMerger.parseLine(bytes)
    } catch {
      throw Self.located(error, file: name, line: lines.lineNumber)
    }
  }

  static func located(_ error: PartialMerger.PartialLineError, file: String, line: Int) -> PartialStateError {
    switch error {
    case .malformed(let detail): return .malformed(file: file, line: line, detail: detail)
    case .failure(let failure): return failure
    }
  }
}

/// A per-account partial's header, and where it was read.
struct AccountPartialHeader {
  var settings: PartialSettings
  var inputs: [InputFingerprint]
  /// Where the accounts came from: `field` or `file name`.
  var accounts: String
  var file: String
  var line: Int
}
