import Foundation
import Testing

@testable import TxFold

/// `--dedupe` (Documentation/Formats.md, "Each transaction once") against an
/// oracle that owes nothing to TxFold's dedupe: the generator below records,
/// for every line it writes, the transaction's key, instant and place, picks
/// each key's winner from that (latest instant, then later file, then later
/// line), and writes the inputs again without the losers. A dedupe run over
/// the inputs must equal a plain run over the oracle's — for every job, per
/// account or not, on 1 and 3 threads, at every chunk size, and with the id
/// table spilled by a tiny memory limit.
@Suite struct DedupeAtScaleTests {
  /// One line the generator wrote.
  struct Line {
    var text: String
    /// `nil` for a line that is rejected.
    var id: String?
    var account = ""
    var seconds = 0
  }

  /// Two inputs: the first night's 600 transactions (and a line that is not
  /// JSON); the second re-sends every fifth exactly, completes the pending
  /// ones two days later, re-sends some with the same instant and another
  /// amount (a tie: the later input wins), sends older versions of some (they
  /// lose), sends some ids again under another account (another transaction
  /// per account, a duplicate otherwise), and 100 new ones. Every id is 46
  /// bytes and the first 40 are the same, so ids differ only past any prefix.
  static let inputs: [[Line]] = {
    let start = 1_709_251_200  // 2024-03-01T00:00:00Z
    func line(
      _ index: Int, seconds: Int, state: String, amount: String, account: String, description: String
    ) -> Line {
      let id = "customer-payment-reference-00000000000000-" + String(format: "%04d", index)
      let stamp = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
      let indicator = index % 3 == 0 ? "CRDT" : "DBIT"
      let currency = index % 4 == 0 ? "USD" : "EUR"
      let text =
        #"{"id":"\#(id)","arrangementId":"\#(account)","creationTime":"\#(stamp)","state":"\#(state)","#
        + #""creditDebitIndicator":"\#(indicator)","transactionAmountCurrency":{"amount":"\#(amount)","#
        + #""currencyCode":"\#(currency)"},"description":"\#(description)"}"#
      return Line(text: text, id: id, account: account, seconds: seconds)
    }
    var first: [Line] = []
    var second: [Line] = []
    for index in 0..<600 {
      let seconds = start + (index * 7_919) % (20 * 86_400)
      let state = index % 7 == 3 ? "PENDING" : "COMPLETED"
      let account = "ACC-\(index % 9)"
      let amount = "\(10 + index % 290).\(String(format: "%02d", index % 100))"
      first.append(line(index, seconds: seconds, state: state, amount: amount, account: account, description: "v1"))
      if index == 300 { first.append(Line(text: "not json")) }
      if index % 5 == 0 {
        second.append(first[first.count - 1])
      }
      if index % 7 == 3 {
        second.append(
          line(
            index, seconds: seconds + 2 * 86_400 + 3_600, state: "COMPLETED", amount: amount, account: account,
            description: "completed"))
      }
      if index % 11 == 4 {
        second.append(
          line(index, seconds: seconds, state: state, amount: "999.99", account: account, description: "tie"))
      }
      if index % 13 == 6 {
        second.append(
          line(
            index, seconds: seconds - 86_400, state: state, amount: "1.00", account: account, description: "older"))
      }
      if index % 17 == 8 {
        second.append(
          line(
            index, seconds: seconds + 300, state: state, amount: "5.55", account: "ACC-TWIN", description: "twin"))
      }
    }
    for index in 600..<700 {
      second.append(
        line(
          index, seconds: start + index * 1_000, state: "COMPLETED", amount: "2.50", account: "ACC-\(index % 9)",
          description: "new"))
    }
    return [first, second]
  }()

  static func bytes(_ lines: [Line]) -> [UInt8] {
    Array(lines.map { $0.text + "\n" }.joined().utf8)
  }

  /// The oracle: each input without the lines that lose to a later version
  /// of their transaction (key: the id, or the account and the id), and how many lost.
  static func deduplicated(perAccount: Bool) -> (inputs: [[UInt8]], losers: Set<[Int]>) {
    var winner: [String: (seconds: Int, file: Int, line: Int)] = [:]
    for (file, lines) in inputs.enumerated() {
      for (number, line) in lines.enumerated() {
        guard let id = line.id else { continue }
        let key = perAccount ? line.account + "\u{0}" + id : id
        if let current = winner[key], (current.seconds, current.file, current.line) > (line.seconds, file, number) {
          continue
        }
        winner[key] = (line.seconds, file, number)
      }
    }
    var losers: Set<[Int]> = []
    let kept = inputs.enumerated().map { file, lines in
      lines.enumerated().filter { number, line in
        guard let id = line.id else { return true }
        let best = winner[perAccount ? line.account + "\u{0}" + id : id]
        let wins = best?.file == file && best?.line == number
        if !wins { losers.insert([file, number]) }
        return wins
      }.map(\.element)
    }
    return (kept.map(bytes), losers)
  }

  static func sources(_ inputs: [[UInt8]]) -> [any ByteSource] {
    inputs.enumerated().map { MemorySource($1, name: "night-\($0 + 1).jsonl") }
  }

  static let settings: [(threads: Int, chunkSize: Int, memoryLimit: Int)] = [
    (1, 1 << 20, 512 << 20), (3, 1 << 20, 512 << 20), (1, 700, 1), (3, 700, 1), (3, 4_096, 512 << 20),
    (2, 333, 1),
  ]

  static var allLines: Int { inputs.reduce(0) { $0 + $1.count } }
  /// The lines that are not JSON (the first input's, and its copy in the second).
  static var badLines: Int { inputs.reduce(0) { $0 + $1.filter { $0.id == nil }.count } }

  @Test("group: a dedupe run equals a plain run over the oracle's inputs", arguments: 0..<6)
  func group(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    let oracle = Self.deduplicated(perAccount: false)
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    let expected = try GroupPipeline(options: options).run(sources: Self.sources(oracle.inputs))
    options.dedupe = true
    options.memoryLimit = memoryLimit
    let report = try GroupPipeline(options: options).run(sources: Self.sources(Self.inputs.map(Self.bytes)))
    #expect(report.sections == expected.sections)
    #expect(report.stats.duplicates == oracle.losers.count)
    #expect(report.stats.lines == Self.allLines)
    #expect(Self.badLines == 2)
    #expect(report.stats.accepted == Self.allLines - Self.badLines)
    #expect(report.stats.rejected == Self.badLines)
  }

  @Test("group: where no record repeats, the first pass's fold is the report (no second pass)", arguments: 0..<6)
  func groupWithoutRepeats(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    let night = [Self.bytes(Self.inputs[0])]
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    options.memoryLimit = max(memoryLimit, 4_096)
    options.filter = TransactionFilter(states: ["COMPLETED"])
    /// The report of a run over `inputs`, and how many chunks its passes framed (one progress
    /// report each; a later pass's report as it starts has read nothing and is not a chunk).
    func run(_ inputs: [[UInt8]], dedupe: Bool) throws -> (GroupReport, chunks: Int) {
      var options = options
      options.dedupe = dedupe
      let pipeline = GroupPipeline(options: options)
      var chunks = 0
      pipeline.onProgress = { if $0.storedBytesRead > 0 { chunks += 1 } }
      return (try pipeline.run(sources: Self.sources(inputs)), chunks)
    }
    let (expected, plainChunks) = try run(night, dedupe: false)
    let (report, chunks) = try run(night, dedupe: true)
    #expect(report == expected)
    // One pass: the run framed each chunk once, as the plain run did.
    #expect(chunks == plainChunks)
    // Where records repeat, the second pass reads only the losers and takes them out of the first's fold.
    let all = Self.inputs.map(Self.bytes)
    let (_, onceEach) = try run(all, dedupe: false)
    let (_, twice) = try run(all, dedupe: true)
    #expect(twice == 2 * onceEach)
  }

  @Test(
    "group: the losers are taken out of the first pass's fold (latest, members, printed totals), else the winners folded anew",
    arguments: 0..<4)
  func groupTakesLosersOut(variant: Int) throws {
    func line(_ id: String, _ time: String, _ state: String, _ amount: String) -> String {
      #"{"id":"\#(id)","creationTime":"\#(time)","state":"\#(state)","creditDebitIndicator":"DBIT","#
        + #""transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"description":"\#(id)"}"#
    }
    // Twelve pending payments of one day: a group that keeps 2 members keeps 10 while losers may leave it.
    let many = (0..<12).map { line("m\($0)", "2024-03-05T\(10 + $0):00:00Z", "PENDING", "2.00") }
    let night1 =
      [
        line("a", "2024-03-01T12:00:00Z", "PENDING", "12.50"),
        line("b", "2024-03-01T11:00:00Z", "PENDING", "3.10"),
        line("x", "2024-03-01T09:00:00Z", "PENDING", "1.00"),
        line("c", "2024-03-02T09:00:00Z", "COMPLETED", "40.00"),
        line("d", "2024-03-03T09:00:00Z", "PENDING", "7.25"),
        line("p", "2024-03-08T10:00:00Z", "COMPLETED", "5.000"),
        line("q", "2024-03-08T11:00:00Z", "COMPLETED", "6.00"),
        line("r", "2024-03-08T12:00:00Z", "COMPLETED", "7"),
      ] + many
    // a completes (it was its group's latest and first member), b comes back unchanged (a re-sent
    // day: both copies in one group), d moves to another day (its old group is left with nothing).
    let night2 = [
      line("a", "2024-03-02T10:00:00Z", "COMPLETED", "12.50"),
      line("b", "2024-03-01T11:00:00Z", "PENDING", "3.10"),
      line("d", "2024-04-04T09:00:00Z", "COMPLETED", "7.25"),
      line("e", "2024-03-02T08:00:00Z", "COMPLETED", "1"),
    ]
    let variants: [(second: [String], passes: Int)] = [
      (night2, 2),
      // The only amount of scale 3 in its group loses: the total prints with the next scale, 2.
      (night2 + [line("c", "2024-03-02T08:30:00Z", "COMPLETED", "40.000")], 2),
      // The amounts of a total's two largest scales all lose: the scale left is not known.
      (
        night2 + [
          line("p", "2024-03-09T10:00:00Z", "COMPLETED", "5.000"),
          line("q", "2024-03-09T11:00:00Z", "COMPLETED", "6.00"),
        ], 3
      ),
      // Nine of the ten most recent of the twelve complete: of those kept, one is left where two are
      // shown (the latest, the most recent, stays).
      (night2 + (2..<11).map { line("m\($0)", "2024-03-06T\(10 + $0):00:00Z", "COMPLETED", "2.00") }, 3),
    ]
    let (second, passes) = variants[variant]
    let nights = [night1, second]
    // The oracle: each id's latest line (on a tie, the later one), the others left out.
    var best: [String: (time: String, night: Int, line: Int)] = [:]
    let parsed = nights.enumerated().flatMap { night, lines in
      lines.enumerated().map { number, text in
        let fields = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        return (id: fields["id"] as! String, time: fields["creationTime"] as! String, night: night, line: number)
      }
    }
    for record in parsed
    where best[record.id].map({ ($0.time, $0.night, $0.line) < (record.time, record.night, record.line) }) ?? true {
      best[record.id] = (record.time, record.night, record.line)
    }
    let winners = nights.enumerated().map { night, lines in
      lines.enumerated().filter { number, _ in
        parsed.contains { $0.night == night && $0.line == number && best[$0.id]! == ($0.time, night, number) }
      }.map(\.element)
    }
    func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }
    /// The JSON report's groups as printed (the stats, which differ, left out).
    func printed(_ folded: FoldedGroups) -> String {
      var out: [UInt8] = []
      folded.render(format: .json) { (piece: inout [UInt8]) in
        out += piece
        piece.removeAll()
      }
      let text = String(decoding: out, as: UTF8.self)
      return String(text[..<text.range(of: "\"stats\"")!.lowerBound])
    }
    for threads in [1, 3] {
      var options = GroupOptions()
      options.threads = threads
      options.memberLimit = 2
      options.read.limits.chunkSize = 300
      let plain = GroupPipeline(options: options)
      var plainChunks = 0
      plain.onProgress = { if $0.storedBytesRead > 0 { plainChunks += 1 } }
      _ = try plain.checkedFold(inputs: RunInputs(sources: Self.sources(nights.map(bytes))))
      let expected = try GroupPipeline(options: options).checkedFold(
        inputs: RunInputs(sources: Self.sources(winners.map(bytes))))
      options.dedupe = true
      let pipeline = GroupPipeline(options: options)
      var chunks = 0
      pipeline.onProgress = { if $0.storedBytesRead > 0 { chunks += 1 } }
      let folded = try pipeline.checkedFold(inputs: RunInputs(sources: Self.sources(nights.map(bytes))))
      #expect(printed(folded) == printed(expected), "variant \(variant), \(threads) threads")
      #expect(folded.report.sections == expected.report.sections, "variant \(variant), \(threads) threads")
      #expect(folded.stats.duplicates == nights.joined().count - winners.joined().count)
      #expect(folded.stats.accepted == nights.joined().count)
      // Two passes (the second reads only the losers); three when the winners are folded anew.
      #expect(chunks == passes * plainChunks, "variant \(variant), \(threads) threads")
    }
  }

  /// One id sent twice with an amount of 38 nines: both versions overflow a
  /// 128-bit sum of their group and cell, the later (the winner) alone does not.
  static let overflowingNight: (both: [UInt8], winner: [UInt8]) = {
    func line(_ time: String, _ description: String) -> String {
      #"{"id":"big","creationTime":"\#(time)","state":"COMPLETED","creditDebitIndicator":"CRDT","#
        + #""transactionAmountCurrency":{"amount":"99999999999999999999999999999999999999","currencyCode":"EUR"},"#
        + #""description":"\#(description)"}"#
    }
    let later = line("2024-03-01T11:00:00Z", "later") + "\n"
    return (Array((line("2024-03-01T10:00:00Z", "first") + "\n" + later).utf8), Array(later.utf8))
  }()

  @Test("group: a total that overflows only with the losers in it does not fail a dedupe run")
  func groupOverflowingWithLosers() throws {
    let (both, winner) = Self.overflowingNight
    for threads in [1, 2] {
      var options = GroupOptions()
      options.threads = threads
      #expect(throws: PipelineError.self) {
        try GroupPipeline(options: options).run(sources: Self.sources([both]))
      }
      let expected = try GroupPipeline(options: options).run(sources: Self.sources([winner]))
      options.dedupe = true
      let report = try GroupPipeline(options: options).run(sources: Self.sources([both]))
      #expect(report.sections == expected.sections)
      #expect(report.stats.duplicates == 1)
    }
  }

  @Test("group per account: the key is the account and the id", arguments: 0..<6)
  func groupPerAccount(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    let oracle = Self.deduplicated(perAccount: true)
    #expect(oracle.losers != Self.deduplicated(perAccount: false).losers)
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    options.read.accounts = .field
    options.memoryLimit = memoryLimit
    func accounts(_ cursor: AccountReportCursor) throws -> [AccountReport] {
      var all: [AccountReport] = []
      while let report = try cursor.next() { all.append(report) }
      return all
    }
    let expected = try accounts(GroupPipeline(options: options).runPerAccount(sources: Self.sources(oracle.inputs)))
    options.dedupe = true
    let cursor = try GroupPipeline(options: options).runPerAccount(
      sources: Self.sources(Self.inputs.map(Self.bytes)))
    let reports = try accounts(cursor)
    #expect(reports == expected)
    #expect(reports.contains { $0.account == "ACC-TWIN" })
    #expect(cursor.stats.duplicates == oracle.losers.count)
  }

  @Test("list, also per account: the dedupe run's transactions are the oracle's", arguments: 0..<6)
  func list(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    for perAccount in [false, true] {
      let oracle = Self.deduplicated(perAccount: perAccount)
      var options = ListOptions()
      options.threads = threads
      options.read.limits.chunkSize = chunkSize
      options.memoryLimit = max(memoryLimit, 4_096)
      if perAccount { options.read.accounts = .field }
      func transactions(_ sources: [any ByteSource], dedupe: Bool) throws -> [Transaction] {
        var options = options
        options.dedupe = dedupe
        var all: [Transaction] = []
        if perAccount {
          let cursor = try ListPipeline(options: options).runPerAccount(sources: sources)
          while try cursor.nextAccount() != nil { while let next = try cursor.next() { all.append(next) } }
        } else {
          let cursor = try ListPipeline(options: options).run(sources: sources)
          while let next = try cursor.next() { all.append(next) }
          #expect(cursor.stats.duplicates == (dedupe ? oracle.losers.count : 0))
        }
        return all
      }
      let expected = try transactions(Self.sources(oracle.inputs), dedupe: false)
      let listed = try transactions(Self.sources(Self.inputs.map(Self.bytes)), dedupe: true)
      #expect(listed == expected, "per account: \(perAccount)")
    }
  }

  @Test("summary, also per account: the dedupe run's sums are the oracle's", arguments: 0..<6)
  func summary(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    for perAccount in [false, true] {
      let oracle = Self.deduplicated(perAccount: perAccount)
      var options = SummaryOptions()
      options.threads = threads
      options.read.limits.chunkSize = chunkSize
      options.memoryLimit = max(memoryLimit, 4_096)
      options.dimension = .day
      if perAccount { options.read.accounts = .field }
      func entries(_ sources: [any ByteSource], dedupe: Bool) throws -> [[SummaryEntry]] {
        var options = options
        options.dedupe = dedupe
        if perAccount {
          let cursor = try SummaryPipeline(options: options).runPerAccount(sources: sources)
          var all: [[SummaryEntry]] = []
          while let next = try cursor.next() { all.append(next.report.entries) }
          return all
        }
        let report = try SummaryPipeline(options: options).run(sources: sources)
        #expect(report.stats.duplicates == (dedupe ? oracle.losers.count : 0))
        return [report.entries]
      }
      let expected = try entries(Self.sources(oracle.inputs), dedupe: false)
      #expect(try entries(Self.sources(Self.inputs.map(Self.bytes)), dedupe: true) == expected)
    }
  }

  @Test("summary: the first and last day a dedupe run names are its winners'", arguments: 0..<6)
  func summaryDays(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    let oracle = Self.deduplicated(perAccount: false)
    var options = SummaryOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    options.memoryLimit = max(memoryLimit, 4_096)
    options.dimension = .category
    options.datesDeduplicated = true
    // Every state, the completed ones (their earlier versions lose), and none (no period).
    let filters = [TransactionFilter(), TransactionFilter(states: ["COMPLETED"]), TransactionFilter(states: ["X"])]
    for (number, filter) in filters.enumerated() {
      func days(_ inputs: [[UInt8]], dedupe: Bool) throws -> DaySpan? {
        var options = options
        options.dedupe = dedupe
        options.filter = filter
        return try SummaryPipeline(options: options).run(.sources(Self.sources(inputs))).days
      }
      let expected = try days(oracle.inputs, dedupe: false)
      #expect((expected == nil) == (number == 2))
      #expect(try days(Self.inputs.map(Self.bytes), dedupe: true) == expected, "filter \(number)")
    }
  }

  @Test("summary: where no record repeats, the first pass's sums are the report (no second pass)", arguments: 0..<6)
  func summaryWithoutRepeats(setting: Int) throws {
    let (threads, chunkSize, memoryLimit) = Self.settings[setting]
    let night = [Self.bytes(Self.inputs[0])]
    var options = SummaryOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    options.memoryLimit = max(memoryLimit, 4_096)
    options.dimension = .day
    options.filter = TransactionFilter(states: ["COMPLETED"])
    /// The report of a run over `inputs`, and how many chunks its passes framed (one progress
    /// report each; a later pass's report as it starts has read nothing and is not a chunk).
    func run(_ inputs: [[UInt8]], dedupe: Bool) throws -> (SummaryReport, chunks: Int) {
      var options = options
      options.dedupe = dedupe
      let pipeline = SummaryPipeline(options: options)
      var chunks = 0
      pipeline.onProgress = { if $0.storedBytesRead > 0 { chunks += 1 } }
      return (try pipeline.run(sources: Self.sources(inputs)), chunks)
    }
    let (expected, plainChunks) = try run(night, dedupe: false)
    let (report, chunks) = try run(night, dedupe: true)
    #expect(report == expected)
    #expect(report.stats.duplicates == 0)
    // One pass: the run framed each chunk once, as the plain run did.
    #expect(chunks == plainChunks)
    // Where records repeat, the inputs are read again.
    let all = Self.inputs.map(Self.bytes)
    let (_, onceEach) = try run(all, dedupe: false)
    let (_, twice) = try run(all, dedupe: true)
    #expect(twice == 2 * onceEach)
  }

  @Test(
    "summary: the losers are taken out of the first pass's sums (scales included), else the winners summed anew",
    arguments: [SummaryDimension.category, .day, .state, .month])
  func summaryTakesLosersOut(dimension: SummaryDimension) throws {
    func line(
      _ id: String, _ time: String, _ state: String, _ amount: String, _ category: String, _ indicator: String = "DBIT"
    ) -> String {
      #"{"id":"\#(id)","creationTime":"\#(time)","state":"\#(state)","creditDebitIndicator":"\#(indicator)","#
        + #""transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"category":"\#(category)"}"#
    }
    let night1 = [
      line("a", "2024-03-01T10:00:00Z", "PENDING", "12.50", "Food"),
      line("b", "2024-03-01T11:00:00Z", "COMPLETED", "3.10", "Food"),
      line("c", "2024-03-02T09:00:00Z", "COMPLETED", "40.00", "Pay"),
      line("d", "2024-03-03T09:00:00Z", "PENDING", "7.25", "Gone"),
      line("f", "2024-05-05T09:00:00Z", "COMPLETED", "5", "Misc"),
      line("g", "2024-05-05T10:00:00Z", "COMPLETED", "1.000", "Misc"),
      line("h", "2024-05-05T11:00:00Z", "COMPLETED", "2.00", "Misc"),
      line("i", "2024-03-02T08:00:00Z", "COMPLETED", "9.000", "Pay", "CRDT"),
    ]
    // a completes (PENDING → COMPLETED: another state), b comes back unchanged (a re-sent day),
    // d moves to another day and category (its old key is left with nothing), e is new.
    let night2 = [
      line("a", "2024-03-02T10:00:00Z", "COMPLETED", "12.50", "Food"),
      line("b", "2024-03-01T11:00:00Z", "COMPLETED", "3.10", "Food"),
      line("d", "2024-04-04T09:00:00Z", "COMPLETED", "7.25", "Travel"),
      line("e", "2024-03-05T09:00:00Z", "COMPLETED", "1", "Food"),
    ]
    // The only amount of scale 3 in its cell loses: the cell prints with the next scale, 2.
    let night3 = night2 + [line("c", "2024-03-01T09:00:00Z", "COMPLETED", "40.000", "Pay")]
    // The amounts of a cell's two largest scales (g's 3, h's 2) all lose, f's scale 0 is left: the
    // cell's scale is then unknown (but for the state's cell, where others of scale 2 are left).
    let night4 =
      night2 + [
        line("g", "2024-06-06T10:00:00Z", "COMPLETED", "1.000", "Travel"),
        line("h", "2024-06-06T11:00:00Z", "COMPLETED", "2.00", "Travel"),
      ]
    // The same on the income side: the only income of scale 3 (i's) loses to one of scale 2.
    let night5 = night2 + [line("i", "2024-03-02T08:30:00Z", "COMPLETED", "9.00", "Pay", "CRDT")]
    for (second, passes, duplicates) in [
      (night2, 2, 3), (night3, 2, 4), (night4, dimension == .state ? 2 : 3, 5), (night5, 2, 4),
    ] {
      let inputs = [night1, second].map { Array(($0.joined(separator: "\n") + "\n").utf8) }
      for threads in [1, 3] {
        var options = SummaryOptions()
        options.dimension = dimension
        options.threads = threads
        options.read.limits.chunkSize = 300
        options.dedupe = true
        let expected = try SummaryPipeline(options: options).runOneByOne(sources: Self.sources(inputs))
        let pipeline = SummaryPipeline(options: options)
        var chunks = 0
        pipeline.onProgress = { if $0.storedBytesRead > 0 { chunks += 1 } }
        let report = try pipeline.run(sources: Self.sources(inputs))
        #expect(report == expected, "\(dimension), \(threads) threads")
        // Sums compare as numbers; how they print (their scale) is compared as text.
        func printed(_ report: SummaryReport) -> [String] {
          (report.entries.flatMap(\.currencies) + report.totals).map { "\($0.income) \($0.expense)" }
        }
        #expect(printed(report) == printed(expected), "\(dimension), \(threads) threads")
        #expect(report.stats.duplicates == duplicates)
        // Two passes (the second reads only the losers); three when the winners are summed anew.
        options.dedupe = false
        let plain = SummaryPipeline(options: options)
        var plainChunks = 0
        plain.onProgress = { if $0.storedBytesRead > 0 { plainChunks += 1 } }
        _ = try plain.run(sources: Self.sources(inputs))
        #expect(chunks == passes * plainChunks, "\(dimension), \(threads) threads")
      }
    }
  }

  @Test("summary: a sum that overflows only with the losers in it does not fail a dedupe run")
  func summaryOverflowingWithLosers() throws {
    let (both, winner) = Self.overflowingNight
    for threads in [1, 2] {
      var options = SummaryOptions()
      options.threads = threads
      #expect(throws: PipelineError.self) {
        try SummaryPipeline(options: options).run(sources: Self.sources([both]))
      }
      let expected = try SummaryPipeline(options: options).run(sources: Self.sources([winner]))
      options.dedupe = true
      let report = try SummaryPipeline(options: options).run(sources: Self.sources([both]))
      #expect(report.entries == expected.entries)
      #expect(report.totals == expected.totals)
      #expect(report.stats.duplicates == 1)
    }
  }

  @Test("the first pass finds exactly the oracle's losers, spilled or not, on 1 and 3 threads")
  func firstPass() throws {
    for perAccount in [false, true] {
      let oracle = Self.deduplicated(perAccount: perAccount)
      // A place is where the record's line starts in its input.
      let starts = Self.inputs.map { lines in
        lines.map { $0.text.utf8.count + 1 }.reduce(into: [0]) { $0.append($0.last! + $1) }
      }
      let expected = oracle.losers.map { Deduplicated.placeKey(fileIndex: $0[0], offset: Int64(starts[$0[0]][$0[1]])) }
        .sorted()
      for (threads, memoryLimit) in [(1, 1), (3, 1), (1, 512 << 20), (3, 512 << 20)] {
        var read = ReadOptions()
        if perAccount { read.accounts = .field }
        let settings = DuplicateFinder.Settings(
          read: read, threads: threads, memoryLimit: memoryLimit, temporaryDirectory: nil)
        let first = try DuplicateFinder.firstPass(
          RunInputs(sources: Self.sources(Self.inputs.map(Self.bytes))), settings: settings)
        #expect(first.folded == nil)
        let found = try #require(first.read.deduplicated)
        #expect(found.losers == expected, "per account \(perAccount), \(threads) threads, limit \(memoryLimit)")
        #expect(found.spilled == (memoryLimit == 1))
      }
    }
  }

  @Test("a file that changes between the two passes fails the run; one that does not is read again")
  func changedInput() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-dedupe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("night.jsonl").path
    try Data(Self.bytes(Self.inputs[0])).write(to: URL(fileURLWithPath: path))
    for changes in [false, true] {
      var first = try RunInputs(paths: [path])
      let copies = InputCopies(paths: [path], temporaryParent: directory.path, register: { _ in })
      let source = try #require(try first.next())
      #expect(try copies.keep(source) === source)
      try copies.finish()
      if changes {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
      }
      var second = copies.secondPass(of: first)
      if changes {
        #expect(throws: PipelineError.self) { try second.next() }
      } else {
        #expect(try second.next() != nil)
      }
    }
  }

  /// An id table entry as `IDCollector` writes it, with the hash given (one for every key, by default).
  static func entry(_ key: String, hash: UInt64 = 42, seconds: Int64, place: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    let keyBytes = Array(key.utf8)
    withUnsafeBytes(of: UInt32(keyBytes.count).littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: seconds.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(0).littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: place.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes + keyBytes
  }

  @Test("ids are told apart by their bytes: sorting a partition never merges a hash collision")
  func collisionsStayApart() {
    // Three keys with the same hash, two versions of one of them: only that one's older version loses.
    let bytes =
      Self.entry("b", seconds: 5, place: 1) + Self.entry("a", seconds: 9, place: 2)
      + Self.entry("ab", seconds: 1, place: 3)
      + Self.entry("a", seconds: 3, place: 4) + Self.entry("b", seconds: 5, place: 5)
    var losers: [UInt64] = []
    IDPartitions.appendLosers(in: bytes, to: &losers)
    #expect(losers.sorted() == [1, 4])
  }

  @Test("versions judged as they meet stay judged when another key with their hash comes later")
  func collisionAfterVersionsMet() {
    // "a" meets its own versions first (judged in the table), then "b" shares the hash (set aside and
    // sorted by bytes): "a"'s earlier versions stay losers, its latest is judged again with "b" and
    // the last "a", and "b"'s two versions meet there too.
    let bytes =
      Self.entry("a", seconds: 3, place: 1) + Self.entry("a", seconds: 9, place: 2)
      + Self.entry("a", seconds: 9, place: 3)
      + Self.entry("b", seconds: 5, place: 4) + Self.entry("a", seconds: 1, place: 5)
      + Self.entry("b", seconds: 4, place: 6)
      + Self.entry("c", seconds: 1, place: 7) + Self.entry("c", seconds: 1, place: 8)
    var losers: [UInt64] = []
    IDPartitions.appendLosers(in: bytes, to: &losers)
    #expect(losers.sorted() == [1, 2, 5, 6, 7])
    // Without a collision, every version meets in the table.
    var alone: [UInt64] = []
    IDPartitions.appendLosers(
      in: Self.entry("a", hash: 1, seconds: 3, place: 1) + Self.entry("b", hash: 2, seconds: 1, place: 2)
        + Self.entry("a", hash: 1, seconds: 2, place: 3) + Self.entry("a", hash: 1, seconds: 3, place: 4),
      to: &alone)
    #expect(alone.sorted() == [1, 3])
  }

  @Test("a partition's entries judged over the workers' buffers as handed over find the losers one buffer finds")
  func judgedOverChunks() {
    // A key's versions and a hash collision spread over three buffers, as workers hand them over.
    let pieces = [
      Self.entry("a", seconds: 3, place: 1) + Self.entry("b", seconds: 5, place: 4),
      Self.entry("a", seconds: 9, place: 2),
      Self.entry("a", seconds: 1, place: 5) + Self.entry("b", seconds: 4, place: 6)
        + Self.entry("c", hash: 9, seconds: 1, place: 7) + Self.entry("c", hash: 9, seconds: 1, place: 8),
    ]
    var alone: [UInt64] = []
    IDPartitions.appendLosers(in: pieces.reduce([], +), to: &alone)
    var chunked: [UInt64] = []
    IDPartitions.appendLosers(in: pieces.map { $0.withUnsafeBytes { IDEntryChunk(copying: $0) } }, to: &chunked)
    #expect(alone.sorted() == [1, 5, 6, 7])
    #expect(chunked.sorted() == alone.sorted())
  }

  @Test("the losers' places are sorted as sort() sorts them, over one input and several")
  func placesSorted() {
    var generator = SystemRandomNumberGenerator()
    for (count, high) in [(0, 1), (10, 1 << 20), (5_000, 1 << 27), (5_000, 1 << 47), (3_000, 1 << 63)]
      as [(Int, UInt64)]
    {
      let places = (0..<count).map { _ in UInt64.random(in: 0..<high, using: &generator) }
      #expect(DuplicateFinder.sortedPlaces(places) == places.sorted(), "\(count) places below \(high)")
    }
    let repeated = [UInt64](repeating: 7, count: 100) + [3, 1 << 44, 2]
    #expect(DuplicateFinder.sortedPlaces(repeated) == repeated.sorted())
  }

  @Test("one id sent 30,000 times is judged without loading its entries at once: one winner, every other place loses")
  func oneKeySentVeryOften() throws {
    // Every entry has the same key (and so the same hash): no split separates them. Before they were
    // judged an entry at a time, the whole set was loaded, and memory grew with the dump.
    let count: UInt64 = 30_000
    var generator = SystemRandomNumberGenerator()
    // The latest instant is sent twice: of those two, the later place wins.
    var seconds = (1...count).map { Int64($0 % 1_000) }
    seconds.shuffle(using: &generator)
    let latest = seconds.max() ?? 0
    let winner = (1...count).last { seconds[Int($0 - 1)] == latest } ?? 0
    let hash = Array("X".utf8).withUnsafeBytes { DedupeKeyHash.hash($0) }
    let partitions = IDPartitions(budget: 1, temporaryParent: nil, register: { _ in })
    defer { partitions.remove() }
    for batch in stride(from: UInt64(1), through: count, by: 1_000) {
      var grouped: [UInt8] = []
      for place in batch..<min(batch + 1_000, count + 1) {
        grouped += Self.entry("X", hash: hash, seconds: seconds[Int(place - 1)], place: place)
      }
      try grouped.withUnsafeBytes { try partitions.take($0, partition: IDPartitions.partition(hash)) }
    }
    let sortLimit = 64 * 1024
    let losers = try DuplicateFinder.findLosers(partitions, threads: 1, sortLimit: sortLimit)
    #expect(losers.count == Int(count) - 1)
    #expect(!losers.contains(winner))
    #expect(partitions.largestLoad <= sortLimit, "a set of \(partitions.largestLoad) bytes was loaded whole")
  }

  @Test(
    "a partition past the sort limit is split by further hash bits (spilled or held) and finds the same losers",
    arguments: [false, true])
  func splitPartitions(collide: Bool) throws {
    // 6,000 keys, a third of them sent again (a later or an earlier version), handed over in batches
    // as workers do; a tiny budget spills most of them. With `collide` every hash is the same, so
    // no split can separate them and the set is judged an entry at a time.
    var generator = SystemRandomNumberGenerator()
    var entries: [[UInt8]] = []
    var winners: [String: (seconds: Int64, place: UInt64)] = [:]
    var places: [(key: String, place: UInt64)] = []
    var place: UInt64 = 0
    for round in 0..<2 {
      for index in 0..<6_000 where round == 0 || index % 3 == 0 {
        place += 1
        let key = "transaction-\(index)"
        let seconds = Int64(round == 0 ? 1_000 : (index % 2 == 0 ? 2_000 : 500))
        let hash = collide ? 7 : Array(key.utf8).withUnsafeBytes { DedupeKeyHash.hash($0) }
        entries.append(Self.entry(key, hash: hash, seconds: seconds, place: place))
        places.append((key, place))
        if let best = winners[key], (best.seconds, best.place) > (seconds, place) { continue }
        winners[key] = (seconds, place)
      }
    }
    entries.shuffle(using: &generator)
    let expected = places.filter { winners[$0.key]?.place != $0.place }.map(\.place).sorted()
    #expect(expected.count == 2_000)
    for sortLimit in [nil, 4_096, 300] as [Int?] {
      let partitions = IDPartitions(budget: 1, temporaryParent: nil, register: { _ in })
      defer { partitions.remove() }
      for batch in stride(from: 0, to: entries.count, by: 500) {
        // One batch, a partition's entries at a time, as a worker hands them over.
        let slice = entries[batch..<min(batch + 500, entries.count)]
        for partition in 0..<IDPartitions.partitionCount {
          var held: [UInt8] = []
          for entry in slice {
            let hash = entry.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self) }
            if IDPartitions.partition(UInt64(littleEndian: hash)) == partition { held += entry }
          }
          if !held.isEmpty { try held.withUnsafeBytes { try partitions.take($0, partition: partition) } }
        }
      }
      #expect(partitions.spilled)
      let losers = try DuplicateFinder.findLosers(partitions, threads: 2, sortLimit: sortLimit)
      if let sortLimit { #expect(partitions.largestLoad <= sortLimit) }
      // Compared whole, reported by count: the lists are thousands long.
      let same = losers == expected
      #expect(same, "sort limit \(sortLimit.map(String.init) ?? "default"): \(losers.count) losers found")
    }
  }
}
