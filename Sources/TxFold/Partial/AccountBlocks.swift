/// One account's groups as values: what a per-account partial (and a spill
/// run of the per-account fold) holds for it.
public struct AccountBlock: Sendable {
  /// The account id as written (a JSON number's decimal text).
  public var account: [UInt8]
  /// The account's groups in partial order (state byte-wise, day, indicator),
  /// each with its members in report order.
  public var groups: [PartialGroup]
}

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
  private let settings: PartialSettings
  /// The source's name, for messages.
  let name: String
  /// The body of the `stats` line that ended the blocks, if one did.
  private(set) var stats: PartialFields?
  /// The line number the last block started on.
  private(set) var blockLine = 0

  init(_ source: any ByteSource, settings: PartialSettings) {
    lines = PartialLineReader(source)
    self.settings = settings
    name = source.name
  }

  /// The next block, or `nil` at the end of the input or a `stats` line.
  func next() throws(PartialStateError) -> AccountBlock? {
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
        var block = AccountBlock(account: account, groups: [])
        for _ in 0..<groupCount { block.groups.append(try readGroup()) }
        return block
      default:
        throw .malformed("expected an 'account' or 'stats' line, found a '\(kind)' line")
      }
    } catch {
      throw Self.located(error, file: name, line: lines.lineNumber)
    }
  }

  /// A group line and its member lines.
  private func readGroup() throws(PartialMerger.PartialLineError) -> PartialGroup {
    guard let (kind, body) = try nextLineInBlock(), kind == "group" else {
      throw .malformed("expected a 'group' line of the account on line \(blockLine)")
    }
    var (group, memberCount) = try PartialMerger.group(body, settings: settings)
    for _ in 0..<memberCount {
      guard let (kind, body) = try nextLineInBlock(), kind == "member" else {
        throw .malformed("expected \(memberCount) 'member' lines after the group's line")
      }
      group.members.append(try PartialMerger.member(body, zoned: settings.timezone != nil))
    }
    return group
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
    while true {
      let next: [UInt8]?
      do throws(InputError) {
        next = try lines.next()
      } catch {
        throw .input(error)
      }
      guard let bytes = next else { return nil }
      if bytes.allSatisfy(\.isJSONWhitespace) { continue }
      do throws(PartialMerger.PartialLineError) {
        return try PartialMerger.parseLine(bytes)
      } catch {
        throw Self.located(error, file: name, line: lines.lineNumber)
      }
    }
  }

  static func located(_ error: PartialMerger.PartialLineError, file: String, line: Int) -> PartialStateError {
    switch error {
    case .malformed(let detail): return .malformed(file: file, line: line, detail: detail)
    case .failure(let failure): return failure
    }
  }
}
