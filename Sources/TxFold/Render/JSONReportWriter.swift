/// Writes the `json` format: one locale-independent document (Documentation/Formats.md, "`group` reports").
///
/// The layout is fixed, so equal reports give equal bytes. The document's
/// skeleton is indented by two spaces, and each group is one compact line —
/// the same object `jsonl` prints, without `state` — so a large report diffs
/// and greps group by group:
///
/// ```
/// {
///   "sections": [
///     {
///       "state": "PENDING",
///       "groups": [
///         {"date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR"},{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR"}]}
///       ]
///     }
///   ],
///   "stats": {"lines":7,"accepted":7,"rejected":0,"duplicates":0}
/// }
/// ```
///
/// - Group keys, in order: `date` (`YYYY-MM-DD`), `creditDebitIndicator`
///   (`CRDT`/`DBIT`), `count`, `totals` (per currency, in the report's order),
///   `latest` (the timestamp as written), `transactions` (the kept members:
///   `id`, `description` only when present, `amount`, `currency`).
/// - Amounts are JSON strings in canonical text (`"3839.90"`, no grouping),
///   so no consumer reads them through binary floating point.
/// - A report with no sections prints `"sections": [],`.
/// - Strings are escaped by `JSONEscaping`: non-ASCII passes through as UTF-8.
/// - The document ends with a newline.
///
/// `appendGroupObject` is the one writer of a group's object: `jsonl` and the
/// per-account objects write theirs with it too.
struct JSONReportWriter: GroupDocumentWriter {
  func appendBeginning(empty: Bool, to out: inout [UInt8]) {
    out.appendLiteral(empty ? "{\n  \"sections\": [],\n" : "{\n  \"sections\": [\n")
  }

  func appendSectionStart(first: Bool, appendState: (inout [UInt8]) -> Void, to out: inout [UInt8]) {
    out.appendLiteral("    {\n      \"state\": ")
    appendState(&out)
    out.appendLiteral(",\n      \"groups\": [\n")
  }

  func appendGroup<Group: GroupView>(_ group: Group, first: Bool, last: Bool, to out: inout [UInt8]) {
    out.appendLiteral("        ")
    Self.appendGroupObject(group, includingState: false, to: &out)
    if !last { out.append(.comma) }
    out.append(.newline)
  }

  func appendSectionEnd(last: Bool, to out: inout [UInt8]) {
    out.appendLiteral("      ]\n    }")
    if !last { out.append(.comma) }
    out.append(.newline)
  }

  func appendEnd(empty: Bool, stats: RunStats, to out: inout [UInt8]) {
    if !empty { out.appendLiteral("  ],\n") }
    out.appendLiteral("  \"stats\": ")
    Self.appendStats(stats, to: &out)
    out.appendLiteral("\n}\n")
  }

  /// The scratch memory a group is written into (`ByteScratch`): on the
  /// stack, which `withUnsafeTemporaryAllocation` gives only up to 1 KiB
  /// (beyond, it took `malloc` once a group).
  static let scratchSize = 1_024
  /// A member's bytes besides its three strings' own: the keys, quotes,
  /// braces and comma (88), the amount (at most 22) and the instant.
  static let memberFrame = 88 + ExactDecimal.canonicalTextLimit + Timestamp.textLimit
  /// What the group's object takes from `"date"` to `"totals":[`, and from
  /// `],"latest"` to `"transactions":[`, at most.
  private static let headRoom = 80 + ByteScratch.fieldRoom
  private static let tailRoom = 40 + ByteScratch.fieldRoom

  /// Appends one group as a compact JSON object, with `"state"` as its first
  /// key when `includingState` is true (the `jsonl` line), and the members
  /// the view shows.
  ///
  /// The caller flushes after the group: a group is in the buffer whole.
  static func appendGroupObject<Group: GroupView>(_ group: Group, includingState: Bool, to out: inout [UInt8]) {
    // The whole group goes through the scratch memory, moved to `out` when
    // full: a per-account report writes one group per customer and day, and
    // appending its dozen pieces to the array one by one (a uniqueness and
    // capacity check and a call each) was most of writing it.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { memory in
      var scratch = ByteScratch(memory)
      scratch.write(.openBrace)
      if includingState {
        scratch.write("\"state\":")
        group.writeStateJSON(to: &scratch, flushingTo: &out)
        scratch.makeRoom(1, flushingTo: &out)
        scratch.write(.comma)
      }
      scratch.makeRoom(headRoom, flushingTo: &out)
      scratch.write("\"date\":\"")
      scratch.write(group.day)
      scratch.write(
        group.indicator == .credit ? "\",\"creditDebitIndicator\":\"CRDT" : "\",\"creditDebitIndicator\":\"DBIT")
      scratch.write("\",\"count\":")
      scratch.writeDecimal(group.count)
      scratch.write(",\"totals\":[")
      var written = 0
      group.forEachTotal { currency, amount, _ in
        scratch.makeRoom(14, flushingTo: &out)
        if written > 0 { scratch.write(.comma) }
        written += 1
        scratch.write("{\"currency\":")
        group.writeCurrencyJSON(currency, to: &scratch, flushingTo: &out)
        scratch.makeRoom(12, flushingTo: &out)
        scratch.write(",\"amount\":\"")
        scratch.write(amount, flushingTo: &out)
        scratch.makeRoom(2, flushingTo: &out)
        scratch.write("\"}")
      }
      scratch.makeRoom(tailRoom, flushingTo: &out)
      scratch.write("],\"latest\":\"")
      scratch.write(group.latest)
      scratch.write("\",\"transactions\":[")
      var first = true
      group.forEachMember { member in
        appendMember(member, first: first, scratch: &scratch, to: &out)
        first = false
      }
      scratch.makeRoom(2, flushingTo: &out)
      scratch.write("]}")
      scratch.move(to: &out)
    }
  }

  /// Writes one member's object, after a comma unless it is the `first`.
  private static func appendMember(
    _ member: GroupMemberText, first: Bool, scratch: inout ByteScratch, to out: inout [UInt8]
  ) {
    let (id, currency, description) = (member.id, member.currency, member.description)
    // The usual member, strings without escapes and an amount in a word, is
    // copied into the scratch memory; any other is appended piece by piece.
    let need = memberFrame + id.count + currency.count + (description?.count ?? 0)
    if need > scratch.room { scratch.move(to: &out) }
    let copied =
      need <= scratch.room && isPlainText(member)
      && member.amount.withCanonicalText { amount in
        if !first { scratch.write(.comma) }
        scratch.write("{\"id\":\"")
        scratch.write(id)
        if let description {
          scratch.write("\",\"description\":\"")
          scratch.write(description)
        }
        scratch.write("\",\"amount\":\"")
        scratch.write(amount)
        scratch.write("\",\"currency\":\"")
        scratch.write(currency)
        scratch.write("\",\"instant\":\"")
        scratch.write(member.instant)
        scratch.write("\"}")
        return true
      } == true
    if copied { return }
    scratch.move(to: &out)
    if !first { out.append(.comma) }
    out.appendLiteral("{\"id\":")
    JSONEscaping.appendString(repairing: id, to: &out)
    if let description {
      out.appendLiteral(",\"description\":")
      JSONEscaping.appendString(repairing: description, to: &out)
    }
    out.appendLiteral(",\"amount\":\"")
    member.amount.appendText(to: &out)
    out.appendLiteral("\",\"currency\":")
    JSONEscaping.appendString(repairing: currency, to: &out)
    out.appendLiteral(",\"instant\":\"")
    member.instant.appendText(to: &out)
    out.appendLiteral("\"}")
  }

  /// Whether the member's strings are plain text each (`JSONEscaping.isPlainText`).
  /// Strings that lie together are checked in one pass: plain text together,
  /// with each later string starting a character, is plain text each.
  static func isPlainText(_ member: GroupMemberText) -> Bool {
    if let together = member.together, JSONEscaping.isPlainText(together),
      startsCharacter(member.currency), startsCharacter(member.description)
    {
      return true
    }
    return JSONEscaping.isPlainText(member.id) && JSONEscaping.isPlainText(member.currency)
      && member.description.map(JSONEscaping.isPlainText) != false
  }

  /// Whether `bytes` is empty or absent or begins with a byte that starts a
  /// UTF-8 character (not a continuation byte): in valid UTF-8, a cut there
  /// leaves whole characters on both sides.
  @inline(__always)
  private static func startsCharacter(_ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
    guard let bytes, let first = bytes.first else { return true }
    return first & 0xC0 != 0x80
  }

  /// Appends `{"lines":7,"accepted":7,"rejected":0,"duplicates":0}`.
  static func appendStats(_ stats: RunStats, to out: inout [UInt8]) {
    out.appendLiteral("{\"lines\":")
    out.appendDecimal(stats.lines)
    out.appendLiteral(",\"accepted\":")
    out.appendDecimal(stats.accepted)
    out.appendLiteral(",\"rejected\":")
    out.appendDecimal(stats.rejected)
    out.appendLiteral(",\"duplicates\":")
    out.appendDecimal(stats.duplicates)
    if let selected = stats.selected {
      out.appendLiteral(",\"selected\":")
      out.appendDecimal(selected)
    }
    if let accounts = stats.accounts {
      out.appendLiteral(",\"accounts\":")
      out.appendDecimal(accounts)
    }
    if let changed = stats.changedAccounts {
      out.appendLiteral(",\"changedAccounts\":")
      out.appendDecimal(changed)
    }
    out.append(.closeBrace)
  }
}
