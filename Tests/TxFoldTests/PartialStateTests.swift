import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// Partial states: the written form reads back to the same table, and merging
/// the partials of any split, in any order, gives the report of one table.
@Suite("Partial states")
struct PartialStateTests {
  // MARK: Random tables

  static let descriptions: [String?] = [
    nil, "", "Salary", "Internet Banking", #"quote " and backslash \ and slash /"#, "tab\tnew\nline\r",
    "\u{01}\u{1F} control", "Café Müller & Söhne", "Lawson 東京駅店", "emoji 😀 pair", "\u{7F} delete",
  ]
  static let currencies = ["EUR", "USD", "GBP", "CHF", "JPY", "PBP", "X\"Y"]
  static let states = ["PENDING", "COMPLETED", "completed", "REVERSED", "on-hold"]

  /// A random accepted timestamp: every form, offsets east and west, fractions of 1–9 digits.
  static func timestamp(_ random: inout SplitMix64) -> Timestamp {
    let year = random.chance(percent: 3) ? 1965 : 2019 + random.next(below: 5)
    let month = 1 + random.next(below: 12)
    let day = 1 + random.next(below: CalendarMath.daysInMonth(year: year, month: month))
    var text = String(format: "%04d-%02d-%02d", year, month, day)
    if !random.chance(percent: 10) {
      text += String(
        format: "T%02d:%02d:%02d", random.next(below: 24), random.next(below: 60), random.next(below: 60))
      let digits = random.next(below: 10)
      if digits > 0 {
        text += "." + String((0..<digits).map { _ in Character(String(random.next(below: 10))) })
      }
      switch random.next(below: 5) {
      case 0: break
      case 1: text += "Z"
      case 2: text += "-00:00"
      case 3:
        text += String(
          format: "%@%02d:%02d", random.chance(percent: 50) ? "+" : "-", random.next(below: 15),
          [0, 30, 45][random.next(below: 3)])
      default:
        text += String(
          format: "%@%02d%02d", random.chance(percent: 50) ? "+" : "-", random.next(below: 15),
          [0, 30, 45][random.next(below: 3)])
      }
    }
    return TimestampParser.parse(text).unsafelyUnwrapped
  }

  /// A random magnitude with 0–4 fraction digits, now and then a huge one (up to 10^30, so sums
  /// rescaled to 4 fraction digits still fit).
  static func amount(_ random: inout SplitMix64) -> ExactDecimal {
    if random.chance(percent: 1) {
      return ExactDecimal(
        wide: WideInt(random.next(below: 1_000_000)) * 1_000_000_000_000 * 1_000_000_000_000, scale: 0)
    }
    return ExactDecimal(wide: WideInt(random.next(below: 10_000_000)), scale: UInt8(random.next(below: 5)))
  }

  static func transactions(seed: UInt64, count: Int) -> [Transaction] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      Transaction(
        id: random.chance(percent: 20) ? "id-\(random.next(below: 50))" : "t\(random.next())",
        instant: timestamp(&random), amount: amount(&random),
        currency: currencies[random.next(below: currencies.count)],
        creditDebitIndicator: random.chance(percent: 50) ? .credit : .debit,
        state: states[random.next(below: states.count)],
        description: descriptions[random.next(below: descriptions.count)])
    }
  }

  static func settings(memberLimit: Int, timezone: String?) -> PartialSettings {
    PartialSettings(
      memberLimit: memberLimit, schema: "backbase", timezone: timezone, maxRecordBytes: 1 << 20,
      allowTrailingCommas: false)
  }

  /// Folds `transactions` into a state whose accounting adds `rejected` made-up rejections.
  static func state(
    _ transactions: [Transaction], settings: PartialSettings, rejected: [RejectReason: Int] = [:]
  ) throws -> PartialState {
    let zone = try #require(settings.timezone.map { ZoneResolver(identifier: $0) } ?? .asWritten)
    let table = GroupTable(memberLimit: settings.memberLimit)
    for transaction in transactions { try #require(table.fold(transaction, zone: zone)) }
    var stats = RunStats()
    stats.accepted = transactions.count
    stats.rejectedByReason = rejected
    stats.rejected = rejected.values.reduce(0, +)
    stats.lines = stats.accepted + stats.rejected
    stats.bytesRead = Int64(100 * stats.lines)
    stats.bytesDecoded = Int64(300 * stats.lines)
    return PartialState(settings: settings, table: table, stats: stats, inputs: fingerprint(of: transactions, stats))
  }

  /// A made-up input fingerprint for a shard (none for a shard without records, as the fold writes).
  static func fingerprint(of transactions: [Transaction], _ stats: RunStats) -> [InputFingerprint] {
    guard stats.lines > 0 else { return [] }
    var hasher = InputHasher()
    let text = Array(transactions.map { "\($0.id) \($0.instant) \($0.amount)\n" }.joined().utf8)
    text.withUnsafeBytes { hasher.update($0) }
    return [InputFingerprint(bytes: stats.bytesDecoded, hash: hasher.fingerprint.hash)]
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func read(_ parts: [[UInt8]], step: Int = .max) throws -> PartialState {
    let merger = PartialMerger()
    for (index, bytes) in parts.enumerated() {
      try merger.read(MemorySource(bytes, step: step, name: "part-\(index)"))
    }
    return try #require(merger.merged)
  }

  static let parameters: [(memberLimit: Int, timezone: String?)] = [
    (20, nil), (0, nil), (1, "Europe/Amsterdam"), (3, "America/New_York"), (Int.max, nil), (2, "UTC"),
  ]

  @Test("A partial reads back to the same report and the same bytes", arguments: 1...6)
  func roundTrip(seed: UInt64) throws {
    let (memberLimit, timezone) = Self.parameters[Int(seed) - 1]
    let settings = Self.settings(memberLimit: memberLimit, timezone: timezone)
    let state = try Self.state(
      Self.transactions(seed: seed, count: 400), settings: settings,
      rejected: [.invalidJSON: Int(seed), .invalidTimestamp: 2])
    let bytes = PartialStateWriter.writeToBytes(state)
    // Odd read sizes put line ends at every position of the reader's buffer.
    let back = try Self.read([bytes], step: 977)
    #expect(back.settings == settings)
    #expect(back.stats == state.stats)
    #expect(back.report() == state.report())
    #expect(Self.text(PartialStateWriter.writeToBytes(back)) == Self.text(bytes), "writing what was read")
    for format in ReportFormat.allCases {
      #expect(
        Self.text(ReportRenderer.renderToBytes(back.report(), format: format))
          == Self.text(ReportRenderer.renderToBytes(state.report(), format: format)), "\(format)")
    }
  }

  @Test(
    "Merging the partials of any split, in any order, gives the one-table report",
    arguments: [1, 2, 3, 7], [UInt64(21), 22])
  func splitAndMerge(parts: Int, seed: UInt64) throws {
    let (memberLimit, timezone) = Self.parameters[Int(seed) % Self.parameters.count]
    let settings = Self.settings(memberLimit: memberLimit, timezone: timezone)
    let transactions = Self.transactions(seed: seed, count: 500)
    var random = SplitMix64(seed: seed &* 31)
    var shards = Array(repeating: [Transaction](), count: parts)
    for transaction in transactions { shards[random.next(below: parts)].append(transaction) }
    let reasons: [RejectReason] = [.invalidJSON, .missingField, .recordTooLarge]
    var rejected: [RejectReason: Int] = [:]
    var partials: [[UInt8]] = []
    for (index, shard) in shards.enumerated() {
      let shardRejected = [reasons[index % reasons.count]: index]
      rejected.merge(shardRejected) { $0 + $1 }
      partials.append(
        PartialStateWriter.writeToBytes(try Self.state(shard, settings: settings, rejected: shardRejected)))
    }
    let whole = try Self.state(transactions, settings: settings, rejected: rejected.filter { $0.value > 0 })
    let expected = ReportFormat.allCases.map { Self.text(ReportRenderer.renderToBytes(whole.report(), format: $0)) }
    for _ in 0..<3 {
      random.shuffle(&partials)
      let merged = try Self.read(partials)
      #expect(merged.report() == whole.report())
      #expect(
        ReportFormat.allCases.map { Self.text(ReportRenderer.renderToBytes(merged.report(), format: $0)) } == expected)
      // Concatenated into one input, they read the same.
      #expect(try Self.read([Array(partials.joined())]).report() == whole.report())
    }
    // The library's merge of in-memory states agrees.
    let library = PartialState(settings: settings)
    for shard in shards { try library.merge(try Self.state(shard, settings: settings)) }
    #expect(library.report().sections == whole.report().sections)
  }

  @Test("Totals past 38 digits keep every digit and their scale")
  func largeTotals() throws {
    let big = ExactDecimal("999999999999999999999999999999999.99")
    // Shards of different inputs (ids `part-index`), so that merging them is not refused as the same input twice.
    func shard(_ part: Int) throws -> PartialState {
      try Self.state(
        (0..<1000).map { index in
          Transaction(
            id: "\(part)-\(index)", instant: TimestampParser.parse("2020-01-01T10:00:00Z").unsafelyUnwrapped,
            amount: big, currency: "EUR", creditDebitIndicator: .credit, state: "COMPLETED")
        }, settings: Self.settings(memberLimit: 2, timezone: nil))
    }
    let state = try shard(0)
    let bytes = PartialStateWriter.writeToBytes(state)
    #expect(String(decoding: bytes, as: UTF8.self).contains(#""amount":"999999999999999999999999999999999990.00""#))
    #expect(try Self.read([bytes]).report() == state.report())
    // Two of them no longer fit in 128 bits: an error, never a wrap-around.
    #expect {
      _ = try Self.read([bytes] + (1..<5).map { PartialStateWriter.writeToBytes(try shard($0)) })
    } throws: { error in
      guard case .overflow(let what) = error as? PartialStateError else { return false }
      return what.contains("EUR total of the COMPLETED group of 2020-01-01")
    }
  }

  @Test("Partials from a dump are the same bytes on every thread count and chunk size")
  func deterministicBytes() throws {
    let dump = Array(
      (0..<400).map { index in
        backbaseRecord(
          id: "\"\(index)\"", amount: "\"\(index).5\"", indicator: index % 3 == 0 ? "\"CRDT\"" : "\"DBIT\"",
          time: "\"2019-05-\(10 + index % 7)T1\(index % 10):00:00\"",
          state: index % 4 == 0 ? "\"pending\"" : "\"COMPLETED\"")
      }.joined(separator: "\n").utf8)
    var outputs: Set<[UInt8]> = []
    for (threads, chunkSize) in [(1, 1 << 20), (2, 700), (4, 333)] {
      var options = GroupOptions()
      options.threads = threads
      options.read.limits.chunkSize = chunkSize
      options.memberLimit = 3
      outputs.insert(
        PartialStateWriter.writeToBytes(try GroupPipeline(options: options).runPartial(sources: [MemorySource(dump)])))
    }
    #expect(outputs.count == 1)
  }

  // MARK: Refusals

  static let header =
    #"{"txfoldPartial":{"version":3,"memberLimit":20,"schema":"backbase","timezone":null,"dedupe":false,"#
    + #""maxRecordBytes":1048576,"allowTrailingCommas":false,"inputs":[{"bytes":900,"xxh64":"0123456789abcdef"}]}}"#
  static let group =
    #"{"group":{"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"#
    + #""totals":[{"currency":"EUR","count":2,"amount":"3839.90"}],"latest":"2019-05-17T14:28:01","#
    + #""latestEpochSeconds":1558103281,"members":2}}"#
  static let member1 =
    #"{"member":{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","#
    + #""instant":"2019-05-17T14:28:01","epochSeconds":1558103281}}"#
  static let member2 =
    #"{"member":{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","#
    + #""instant":"2019-05-17T09:00:00","epochSeconds":1558083600}}"#
  static let stats =
    #"{"stats":{"groups":1,"lines":3,"accepted":2,"rejected":1,"rejectedByReason":{"invalid-json":1},"#
    + #""duplicates":0,"bytesRead":900,"bytesDecoded":900}}"#
  static let valid = [header, group, member1, member2, stats]

  @Test("The documented example reads as the report it stands for")
  func documentedExample() throws {
    let state = try Self.read([Array((Self.valid.joined(separator: "\n") + "\n").utf8)])
    let json = String(decoding: ReportRenderer.renderToBytes(state.report(), format: .jsonl), as: UTF8.self)
    #expect(
      json == #"{"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"#
        + #""totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":["#
        + #"{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","instant":"2019-05-17T14:28:01"},"#
        + #"{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","#
        + #""instant":"2019-05-17T09:00:00"}]}"# + "\n")
    let stats = state.report().stats
    #expect(stats.lines == 3 && stats.accepted == 2 && stats.rejected == 1 && stats.duplicates == 0)
    // CRLF line ends, blank lines and a missing final newline are fine too.
    let loose = try Self.read([Array(("\r\n" + Self.valid.joined(separator: "\r\n\n")).utf8)])
    #expect(loose.report() == state.report())
  }

  /// Replaces `old` with `new` in line `line` (1-based) of the valid partial.
  static func edit(_ line: Int, _ old: String, _ new: String) -> [String] {
    var lines = valid
    lines[line - 1] = lines[line - 1].replacingOccurrences(of: old, with: new)
    return lines
  }

  @Test(
    "Malformed partials are refused with the line and the reason",
    arguments: [
      ([], 1, "the input is empty"),
      ([group, member1, member2, stats], 1, "not a TxFold partial state"),
      (["{"] + valid.dropFirst(), 1, "invalid JSON at byte 2"),
      (edit(1, #""dedupe":false"#, #""dedupe":false,"extra":1"#), 1, "unknown key 'extra'"),
      (edit(1, #""dedupe":false"#, #""dedupe":true"#), 1, "a partial folded with dedupe cannot be merged"),
      (edit(1, #""memberLimit":20"#, #""memberLimit":"20""#), 1, "'memberLimit' must be a number, not a string"),
      (edit(2, #""count":2"#, #""count":"2""#), 2, "'count' must be a number"),
      (edit(2, #""count":2"#, #""count":2.0"#), 2, "'count' must be a whole number"),
      (edit(2, #""count":2"#, #""count":-2"#), 2, "'count' must not be negative"),
      (edit(2, #""count":2"#, #""count":99999999999999999999"#), 2, "'count' is out of range"),
      (edit(2, "2019-05-17\"", "2019-02-30\""), 2, "'date' is not a date: '2019-02-30'"),
      (edit(2, "CRDT", "CRED"), 2, "must be CRDT or DBIT, not 'CRED'"),
      (edit(2, #""totals":[{"currency":"EUR","count":2,"amount":"3839.90"}]"#, #""totals":[]"#), 2, "non-empty array"),
      (edit(2, #""currency":"EUR","count":2,"#, #""currency":"EUR","#), 2, "'count'"),
      (
        edit(2, #""currency":"EUR","count":2,"#, #""currency":"EUR","count":0,"#), 2,
        "a total's 'count' must be at least 1"
      ),
      (
        edit(2, #""currency":"EUR","count":2,"#, #""currency":"EUR","count":3,"#), 2,
        "the totals' counts add up to 3, but the group's 'count' is 2"
      ),
      (edit(2, "3839.90", "-3839.90"), 2, "not a non-negative decimal: '-3839.90'"),
      (edit(2, "3839.90", "3839."), 2, "not a non-negative decimal"),
      (edit(2, #""members":2"#, #""members":3"#), 2, "'members' (3) is more than 'count'"),
      (edit(2, #""members":2"#, #""members":1"#), 4, "expected a 'group' or 'stats' line, found a 'member' line"),
      (edit(2, "1558103281", "1558103282"), 2, "the instant of 'latest' '2019-05-17T14:28:01' is 1558103281"),
      (edit(2, #""state":"PENDING","#, #""state":"PENDING","state":"X","#), 2, "'state' appears twice"),
      (edit(3, #""currency":"EUR""#, #""currency":"USD""#), 3, "currency 'USD' has no total in its group (line 2)"),
      (
        edit(3, #"14:28:01","epochSeconds":1558103281"#, #"14:28:10","epochSeconds":1558103290"#), 3,
        "more recent than its group's 'latest'"
      ),
      (edit(3, #""id":"2""#, #""id":"\ud800""#), 3, "an escaped lone surrogate"),
      (edit(3, #""id":"2""#, #""id":"\x""#), 3, "an invalid escape"),
      (edit(3, #""id":"2""#, #""id":[[[[[[[[[1]]]]]]]]]"#), 3, "nesting deeper than 8"),
      (edit(3, #""id":"2""#, #""id":2"#), 3, "'id' must be a string, not a number"),
      (edit(4, #"{"member":"#, #"{"other":1,"member":"#), 4, "an object with one key"),
      (edit(5, #""groups":1"#, #""groups":2"#), 5, "counts 2 groups but the partial has 1"),
      (edit(5, #""accepted":2"#, #""accepted":1"#), 5, "is not 'accepted' (1) plus 'rejected' (1)"),
      (edit(5, #""lines":3,"accepted":2"#, #""lines":4,"accepted":3"#), 5, "group counts add up to 2"),
      (edit(5, #""invalid-json":1"#, #""invalid-jsn":1"#), 5, "unknown reject reason 'invalid-jsn'"),
      (edit(5, #""invalid-json":1"#, #""invalid-json":2"#), 5, "adds up to 2, not 'rejected' (1)"),
      (Array(valid.dropLast()), 4, "the partial that starts on line 1 ends without its 'stats' line"),
      (Array(valid.dropLast(2)), 3, "ends without its 'stats' line: the input is truncated"),
      (valid + [group], 6, "expected a 'txfoldPartial' header after the previous partial's 'stats' line"),
    ] as [([String], Int, String)])
  func malformed(lines: [String], line: Int, message: String) throws {
    let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
    #expect {
      _ = try Self.read([bytes])
    } throws: { error in
      guard case .malformed(let file, let at, let detail) = error as? PartialStateError else { return false }
      let text = (error as? PartialStateError)?.description ?? ""
      return file == "part-0" && at == line && detail.contains(message) && text.hasSuffix("(part-0, line \(line)).")
    }
  }

  @Test("Invalid UTF-8 in a string is refused")
  func invalidUTF8() throws {
    var bytes = Array((Self.valid.joined(separator: "\n") + "\n").utf8)
    let salary = Array("Salary".utf8)
    let at = try #require(bytes.indices.first { Array(bytes[$0...].prefix(salary.count)) == salary })
    bytes[at] = 0xC3
    bytes[at + 1] = 0x28
    #expect {
      _ = try Self.read([bytes])
    } throws: { error in
      guard case .malformed(_, 3, let detail) = error as? PartialStateError else { return false }
      return detail.contains("invalid UTF-8")
    }
  }

  @Test("Another format version is refused")
  func otherVersion() throws {
    let lines = Self.edit(1, #""version":3"#, #""version":4"#)
    #expect {
      _ = try Self.read([Array(Self.valid.joined(separator: "\n").utf8), Array(lines.joined(separator: "\n").utf8)])
    } throws: { error in
      guard case .unsupportedVersion(let file, 1, "4") = error as? PartialStateError else { return false }
      return file == "part-1"
        && (error as? PartialStateError)?.description.contains(
          "format version 4: this version of TxFold reads version 3") == true
    }
  }

  @Test(
    "Partials folded with other settings are refused, naming both",
    arguments: [
      (#""memberLimit":20"#, #""memberLimit":5"#, "memberLimit 5 in 'part-1' (line 1) but 20 in 'part-0' (line 1)"),
      (#""memberLimit":20"#, #""memberLimit":"all""#, "memberLimit all in 'part-1'"),
      (#""timezone":null"#, #""timezone":"Europe/Paris""#, "timezone Europe/Paris in 'part-1' (line 1) but (none)"),
      (#""schema":"backbase""#, #""schema":"ledger""#, "schema ledger in 'part-1' (line 1) but backbase"),
      (#""maxRecordBytes":1048576"#, #""maxRecordBytes":4096"#, "maxRecordBytes 4096"),
      (#""allowTrailingCommas":false"#, #""allowTrailingCommas":true"#, "allowTrailingCommas on"),
    ])
  func mismatch(old: String, new: String, message: String) throws {
    let other = Self.edit(1, old, new).joined(separator: "\n")
    #expect {
      _ = try Self.read([Array(Self.valid.joined(separator: "\n").utf8), Array(other.utf8)])
    } throws: { error in
      guard case .mismatch = error as? PartialStateError else { return false }
      return (error as? PartialStateError)?.description.contains(message) == true
    }
  }
}

extension PartialStateTests {
  @Test("The example partial in Documentation/Formats.md reads as the report it stands for")
  func formatsExample() throws {
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Documentation/Formats.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "## The partial format, version 3"))
    let fence = try #require(readme.range(of: "```\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "```\n", range: fence.upperBound..<readme.endIndex))
    let example = String(readme[fence.upperBound..<end.lowerBound])
    // Trailing tabs, as Hadoop Streaming writes them, are whitespace.
    let state = try Self.read([Array(example.replacingOccurrences(of: "\n", with: "\t\n").utf8)])
    #expect(
      Self.text(ReportRenderer.renderToBytes(state.report(), format: .jsonl))
        == #"{"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"#
        + #""totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":["#
        + #"{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","instant":"2019-05-17T14:28:01"},"#
        + #"{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","#
        + #""instant":"2019-05-17T09:00:00"}]}"# + "\n")
    let stats = state.report().stats
    #expect(stats.lines == 7 && stats.accepted == 2 && stats.rejected == 5 && stats.duplicates == 0)
    #expect(Self.text(PartialStateWriter.writeToBytes(state)) == example, "the example is what txfold writes")
  }
}

extension PartialStateTests {
  static let twoGroupStats =
    #"{"stats":{"groups":2,"lines":5,"accepted":4,"rejected":1,"rejectedByReason":{"invalid-json":1},"#
    + #""duplicates":0,"bytesRead":900,"bytesDecoded":900}}"#

  /// The valid partial's group and members again as a second group, edited by `edits`.
  static func twoGroups(_ edits: [(String, String)]) -> [String] {
    var second = [group, member1, member2].joined(separator: "\n")
    for (old, new) in edits { second = second.replacingOccurrences(of: old, with: new) }
    return [header, group, member1, member2] + second.split(separator: "\n").map(String.init) + [twoGroupStats]
  }

  @Test(
    "Merge trusts nothing it can check: repeated or unordered keys, edited totals, wrong days, lowercase states",
    arguments: [
      (twoGroups([]), 5, "the group PENDING 2019-05-17 CRDT appears twice in one partial (first on line 2)"),
      (
        twoGroups([("PENDING", "COMPLETED")]), 5,
        "groups out of order: COMPLETED 2019-05-17 CRDT comes after the group on line 2"
      ),
      (
        twoGroups([("2019-05-17", "2019-05-16"), ("1558103281", "1558016881"), ("1558083600", "1557997200")]), 5,
        "groups out of order: PENDING 2019-05-16 CRDT"
      ),
      (twoGroups([("CRDT", "DBIT")]), 0, ""),
      ([header, group, member2, member1, stats], 4, "members out of order"),
      (
        edit(2, "3839.90", "3839.91"), 4,
        "lists all its 2 members, whose EUR amounts add up to 3839.90, but its total is 3839.91"
      ),
      (edit(2, "3839.90", "3839.9"), 4, "add up to 3839.90, but its total is 3839.9"),
      (
        edit(
          2, #""totals":[{"currency":"EUR","count":2,"amount":"3839.90"}]"#,
          #""totals":[{"currency":"EUR","count":1,"amount":"3839.90"},{"currency":"USD","count":1,"amount":"1.00"}]"#),
        4, "lists all its 2 members, 2 of them in EUR, but its EUR total counts 1"
      ),
      (
        edit(
          2, #""latest":"2019-05-17T14:28:01","latestEpochSeconds":1558103281"#,
          #""latest":"2019-05-17T15:00:00","latestEpochSeconds":1558105200"#), 4,
        "lists all its 2 members, but none of them is its 'latest' '2019-05-17T15:00:00'"
      ),
      (
        edit(2, "2019-05-17\"", "2019-05-18\""), 2,
        "'date' is 2019-05-18 but latest '2019-05-17T14:28:01' falls on 2019-05-17"
      ),
      (
        edit(
          4, #""instant":"2019-05-17T09:00:00","epochSeconds":1558083600"#,
          #""instant":"2019-05-16T09:00:00","epochSeconds":1557997200"#), 4,
        "'date' is 2019-05-17 but the member's instant '2019-05-16T09:00:00' falls on 2019-05-16"
      ),
      (edit(2, #""state":"PENDING""#, #""state":"Pending""#), 2, "'state' 'Pending' is not upper-cased"),
      (
        edit(1, #""inputs":[{"bytes":900,"xxh64":"0123456789abcdef"}]"#, #""inputs":[]"#), 5,
        "lists no input fingerprint"
      ),
      (edit(1, "0123456789abcdef", "0123456789ABCDEF"), 1, "'xxh64' must be 16 lower-case hexadecimal digits"),
      (edit(1, "0123456789abcdef", "123"), 1, "'xxh64' must be 16 lower-case hexadecimal digits, not '123'"),
      (
        edit(
          1, #"{"bytes":900,"xxh64":"0123456789abcdef"}"#,
          #"{"bytes":900,"xxh64":"0123456789abcdef"},{"bytes":900,"xxh64":"0123456789abcdef"}"#), 1,
        "'inputs' must be sorted by bytes, then hash, each once"
      ),
    ] as [([String], Int, String)])
  func untrusted(lines: [String], line: Int, message: String) throws {
    let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
    guard line > 0 else {
      // The control: the same group with the other indicator is a different key, in order.
      #expect(try Self.read([bytes]).report().stats.accepted == 4)
      return
    }
    #expect {
      _ = try Self.read([bytes])
    } throws: { error in
      guard case .malformed(let file, let at, let detail) = error as? PartialStateError else { return false }
      return file == "part-0" && at == line && detail.contains(message)
    }
  }

  @Test("A partial without records lists no fingerprint; one that lists some is refused")
  func emptyPartialFingerprints() throws {
    let empty = [
      Self.header.replacingOccurrences(of: #"{"bytes":900,"xxh64":"0123456789abcdef"}"#, with: ""),
      #"{"stats":{"groups":0,"lines":0,"accepted":0,"rejected":0,"rejectedByReason":{},"duplicates":0,"bytesRead":0,"bytesDecoded":0}}"#,
    ]
    let bytes = Array(empty.map { $0 + "\n" }.joined().utf8)
    // Empty partials merge, even the same one twice (Spark's empty partitions).
    #expect(try Self.read([bytes, bytes, bytes]).stats.lines == 0)
    let listed = Array(([Self.header, empty[1]].map { $0 + "\n" }).joined().utf8)
    #expect {
      _ = try Self.read([listed])
    } throws: { error in
      guard case .malformed(_, 2, let detail) = error as? PartialStateError else { return false }
      return detail.contains("a partial without records lists input fingerprints")
    }
  }

  @Test("The same non-empty partial twice is refused, in two inputs or one after the other in one")
  func samePartialTwice() throws {
    let bytes = Array(Self.valid.map { $0 + "\n" }.joined().utf8)
    for parts in [[bytes, bytes], [bytes + bytes]] {
      #expect {
        _ = try Self.read(parts)
      } throws: { error in
        guard case .duplicateInput(let file, let line, let first, 1, let input) = error as? PartialStateError else {
          return false
        }
        let expected = parts.count == 2 ? ("part-1", 1, "part-0") : ("part-0", 6, "part-0")
        return (file, line, first) == expected
          && input == InputFingerprint(bytes: 900, hash: 0x0123_4567_89ab_cdef).description
          && "\(error)".contains("The same input is merged twice")
      }
    }
  }

  @Test("A merged partial carries its inputs' fingerprints: merged again with one of them, it is refused")
  func mergedPartialWithItsInput() throws {
    let settings = Self.settings(memberLimit: 3, timezone: nil)
    let first = try Self.state(Self.transactions(seed: 41, count: 30), settings: settings)
    let second = try Self.state(Self.transactions(seed: 42, count: 30), settings: settings)
    let merged = try Self.read([PartialStateWriter.writeToBytes(first), PartialStateWriter.writeToBytes(second)])
    #expect(merged.inputs == (first.inputs + second.inputs).sorted())
    let mergedBytes = PartialStateWriter.writeToBytes(merged)
    for part in [first, second] {
      #expect(throws: PartialStateError.self) {
        _ = try Self.read([mergedBytes, PartialStateWriter.writeToBytes(part)])
      }
      // The library's in-memory merge refuses it too.
      let library = PartialState(settings: settings)
      try library.merge(merged)
      #expect(throws: PartialStateError.self) { try library.merge(part) }
    }
  }

  @Test("The day check uses the partial's zone, by the fold's rule")
  func dayInZone() throws {
    // 23:30Z on the 16th is 01:30 on the 17th in Amsterdam (summer time).
    let late = [
      Self.header.replacingOccurrences(of: #""timezone":null"#, with: #""timezone":"Europe/Amsterdam""#),
      Self.group.replacingOccurrences(
        of: #""latest":"2019-05-17T14:28:01","latestEpochSeconds":1558103281"#,
        with: #""latest":"2019-05-16T23:30:00Z","latestEpochSeconds":1558049400"#
      )
      .replacingOccurrences(of: #""members":2"#, with: #""members":0"#),
      Self.stats,
    ]
    #expect(try Self.read([Array(late.map { $0 + "\n" }.joined().utf8)]).stats.accepted == 2)
    let asWritten = [Self.header, late[1], Self.stats]
    #expect {
      _ = try Self.read([Array(asWritten.map { $0 + "\n" }.joined().utf8)])
    } throws: { error in
      guard case .malformed(_, 2, let detail) = error as? PartialStateError else { return false }
      return detail.contains("'date' is 2019-05-17 but latest '2019-05-16T23:30:00Z' falls on 2019-05-16")
    }
  }

  @Test("XXH64 matches the reference vectors however the bytes are cut")
  func hasher() {
    let long = Array(String(repeating: "0123456789", count: 10).utf8)
    let mixed = Array((0..<3).flatMap { _ in (0...255).map(UInt8.init) }) + Array("xyz".utf8)
    let vectors: [([UInt8], UInt64)] = [
      ([], 0xef46_db37_51d8_e999), (Array("a".utf8), 0xd24e_c4f1_a98c_6e5b), (Array("abc".utf8), 0x44bc_2cf5_ad77_0999),
      (long, 0xf80e_7b96_315a_fffa), (mixed, 0xe921_a1b4_5bd7_79f8),
    ]
    for (bytes, expected) in vectors {
      for cut in Set([0, 1, 7, 31, 32, 33, 64, bytes.count / 2, bytes.count]) where cut <= bytes.count {
        var hasher = InputHasher()
        bytes.withUnsafeBytes { all in
          var offset = 0
          while offset < all.count {
            let step = cut == 0 ? all.count : min(cut, all.count - offset)
            hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + step)]))
            offset += step
          }
        }
        #expect(hasher.fingerprint == InputFingerprint(bytes: Int64(bytes.count), hash: expected), "cut \(cut)")
      }
    }
  }
}
