import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// The library's incremental runs (`NightlyState`) and the state file's codec.
@Suite struct NightlyStateTests {
  static func record(_ id: String, _ account: String, _ time: String, _ state: String, _ amount: String) -> String {
    #"{"id":"\#(id)","arrangementId":"\#(account)","creationTime":"\#(time)","state":"\#(state)","#
      + #""creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"eur"},"#
      + #""description":"caf\u00e9 \"\#(id)\""}"#
  }

  /// Three nights: a PENDING payment completes, a day is re-sent, a late correction of an older one.
  static let nights: [[String]] = [
    [
      record("a", "X", "2024-03-01T09:00:00Z", "PENDING", "10.00"),
      record("b", "X", "2024-03-01T10:00:00Z", "COMPLETED", "20.00"),
      record("c", "Y", "2024-03-01T11:00:00+02:00", "COMPLETED", "30.5"),
    ],
    [
      record("a", "X", "2024-03-02T09:00:00Z", "COMPLETED", "10.00"),
      record("b", "X", "2024-03-01T10:00:00Z", "COMPLETED", "20.00"),
      record("d", "Y", "2024-03-02T12:00:00Z", "PENDING", "1.25"),
    ],
    [
      record("c", "Y", "2024-03-03T08:00:00Z", "COMPLETED", "31.50"),
      record("a", "X", "2024-03-01T08:00:00Z", "PENDING", "9.00"),
    ],
  ]

  /// A new directory of the test's own; the caller removes it.
  static func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  static func write(_ lines: [String], _ name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "A backend's nightly fold: each night's report and stats equal --dedupe over every night so far",
    arguments: [false, true], [nil, 1, 37])
  func groupNights(perAccount: Bool, chunkSize: Int?) throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var options = GroupOptions()
    options.memberLimit = 1
    if perAccount { options.read.accounts = .field }
    if let chunkSize {
      // Every chunk boundary of the second pass's state records, with records as long as the limit allows.
      options.read.chunkSize = chunkSize
      options.read.maxRecordBytes = Self.nights.joined().map(\.utf8.count).max() ?? 1
    }
    var previous: String?
    var inputs: [String] = []
    for (index, night) in Self.nights.enumerated() {
      let path = try Self.write(night, "night\(index).jsonl", in: directory)
      inputs.append(path)
      var tonight = options
      tonight.read.nightly = try NightlyState(previous: previous, job: .group(options))
      let report = try GroupPipeline(options: tonight).run(paths: [path])
      let state = directory.appendingPathComponent("state\(index)").path
      try #require(tonight.read.nightly).write(to: state, stats: report.stats)
      // What a report's title names: every night's inputs so far, by file name.
      let named = try #require(tonight.read.nightly).inputs(tonight: [path])
      #expect(named.first == Array(inputs.map { URL(fileURLWithPath: $0).lastPathComponent }.prefix(3)))
      #expect(named.count == inputs.count)
      var full = options
      full.dedupe = true
      let expected = try GroupPipeline(options: full).run(paths: inputs)
      #expect(report == expected, "night \(index)")
      #expect(report.stats == expected.stats)
      #expect(report.stats.rejectedByReason == expected.stats.rejectedByReason)
      previous = state
    }
  }

  @Test(
    "Per account, tonight meets last night's records in the merge, or, past an account's share of the budget, in the first pass: the same reports",
    arguments: [nil, 4096])
  func accountMatching(memoryLimit: Int?) throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // A large account (2,000 records a night: more than a 4K limit's share) and a small one; each
    // night re-sends half of the one before, a later version of some, an earlier one of others
    // (which loses to last night's), the same instant of the rest (a tie: tonight's wins).
    var nights: [[String]] = []
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    for night in 0..<3 {
      var lines: [String] = []
      for index in 0..<2_000 {
        let key = night * 1_000 + index
        // The first thousand re-send the night before's last: the same day (a tie), the next or the one before.
        let day = night > 0 && index < 1_000 ? night + [0, 1, -1][index % 3] : night + 1
        let instant = "2024-03-\(twoDigits(day + 1))T10:\(twoDigits(key / 60 % 60)):\(twoDigits(key % 60))Z"
        let id = "t\(key)"
        let state = index % 2 == 0 ? "PENDING" : "COMPLETED"
        lines.append(Self.record(id, index % 50 == 0 ? "small" : "big", instant, state, "\(index % 7).25"))
      }
      nights.append(lines)
    }
    var options = GroupOptions()
    options.memberLimit = 2
    options.read.accounts = .field
    if let memoryLimit { options.memoryLimit = memoryLimit }
    /// Each account's report, whole (its groups with their counts, totals, latest and members).
    func accounts(_ cursor: AccountReportCursor) throws -> [String] {
      var found: [String] = []
      while let account = try cursor.next() { found.append("\(account)") }
      return found
    }
    var previous: String?
    var inputs: [String] = []
    for (index, night) in nights.enumerated() {
      let path = try Self.write(night, "night\(index).jsonl", in: directory)
      inputs.append(path)
      var tonight = options
      let nightly = try NightlyState(previous: previous, job: .group(options))
      tonight.read.nightly = nightly
      let cursor = try GroupPipeline(options: tonight).runPerAccount(paths: [path])
      let found = try accounts(cursor)
      #expect(nightly.matchesInMerge == (previous != nil && memoryLimit == nil), "night \(index)")
      let state = directory.appendingPathComponent("state\(index)").path
      let stats = cursor.stats
      try nightly.write(to: state, stats: stats)
      var full = options
      full.dedupe = true
      let fullCursor = try GroupPipeline(options: full).runPerAccount(paths: inputs)
      #expect(found == (try accounts(fullCursor)), "night \(index)")
      #expect(found.count == 2)
      #expect(stats == fullCursor.stats, "night \(index)")
      previous = state
    }
  }

  @Test("list and summary go on from a state as group does")
  func queries() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let paths = try Self.nights.enumerated().map { try Self.write($1, "night\($0).jsonl", in: directory) }
    var list = ListOptions()
    list.read.nightly = try NightlyState(previous: nil, job: .list(list))
    let first = try ListPipeline(options: list).run(paths: [paths[0]])
    var firstRows: [Transaction] = []
    while let row = try first.next() { firstRows.append(row) }
    let state = directory.appendingPathComponent("list.state").path
    try #require(list.read.nightly).write(to: state, stats: first.stats)
    var second = ListOptions()
    second.read.nightly = try NightlyState(previous: state, job: .list(second))
    var rows: [Transaction] = []
    let cursor = try ListPipeline(options: second).run(paths: [paths[1], paths[2]])
    while let row = try cursor.next() { rows.append(row) }
    var full = ListOptions()
    full.dedupe = true
    var expected: [Transaction] = []
    let fullCursor = try ListPipeline(options: full).run(paths: paths)
    while let row = try fullCursor.next() { expected.append(row) }
    #expect(rows == expected)
    #expect(rows.map(\.id) == ["c", "d", "a", "b"])
    #expect(cursor.stats == fullCursor.stats)

    var summary = SummaryOptions()
    summary.read.nightly = try NightlyState(previous: nil, job: .summary(summary))
    let night1 = try SummaryPipeline(options: summary).run(paths: [paths[0]])
    let summaryState = directory.appendingPathComponent("summary.state").path
    try #require(summary.read.nightly).write(to: summaryState, stats: night1.stats)
    var next = SummaryOptions()
    next.read.nightly = try NightlyState(previous: summaryState, job: .summary(next))
    var fullSummary = SummaryOptions()
    fullSummary.dedupe = true
    #expect(
      try SummaryPipeline(options: next).run(paths: [paths[1], paths[2]])
        == SummaryPipeline(options: fullSummary).run(paths: paths))
  }

  /// A state's header entries and its records, as read back.
  static func contents(ofState path: String) throws -> (header: [String: String], records: [[UInt8]]) {
    let reader = try StateFileReader(path: path)
    var records: [[UInt8]] = []
    while let payload = try reader.nextPayload() { records.append(Array(payload)) }
    return (Dictionary(uniqueKeysWithValues: reader.header.entries.map { ($0.name, $0.value) }), records)
  }

  /// The first night: `nights[0]` folded with `options` and no state in, its state written to
  /// `name` in `directory`; the state's path.
  static func firstNight(_ options: GroupOptions, state name: String = "state0", in directory: URL) throws -> String {
    var first = options
    first.read.nightly = try NightlyState(previous: nil, job: .group(options))
    let report = try GroupPipeline(options: first).run(paths: [try write(nights[0], "night0.jsonl", in: directory)])
    let path = directory.appendingPathComponent(name).path
    try #require(first.read.nightly).write(to: path, stats: report.stats)
    return path
  }

  @Test("Tonight's state is written as the second pass reads it; other stats merge it anew, with the same records")
  func stateWrittenByTheSecondPass() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var options = GroupOptions()
    options.read.accounts = .field
    let previous = try Self.firstNight(options, in: directory)
    var tonight = options
    tonight.read.nightly = try NightlyState(previous: previous, job: .group(options))
    let nightly = try #require(tonight.read.nightly)
    let report = try GroupPipeline(options: tonight).run(paths: [
      try Self.write(Self.nights[1], "night1.jsonl", in: directory)
    ])
    // Other counts: a header the second pass did not write, so the records are merged again from last night's state.
    var other = report.stats
    other.lines += 1
    let merged = directory.appendingPathComponent("merged").path
    try nightly.write(to: merged, stats: other)
    // Without last night's state only the copy of what the second pass wrote can be written.
    try FileManager.default.removeItem(atPath: previous)
    let copied = directory.appendingPathComponent("copied").path
    try nightly.write(to: copied, stats: report.stats)
    let fromPass = try Self.contents(ofState: copied)
    let anew = try Self.contents(ofState: merged)
    #expect(fromPass.records == anew.records)
    #expect(fromPass.records.count == 4)
    #expect(fromPass.header["count.lines"] == "6" && anew.header["count.lines"] == "7")
    #expect(throws: PipelineError.self) { try nightly.write(to: merged + "2", stats: other) }
  }

  @Test("A staged state is written by the second pass in place; other stats write it again from its first byte")
  func stagedState() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var options = GroupOptions()
    options.read.accounts = .field
    let previous = try Self.firstNight(options, in: directory)
    let tonightInput = try Self.write(Self.nights[1], "night1.jsonl", in: directory)
    /// Night 1 with its state staged into a new file; the file once `write` has been asked with `stats`.
    func stagedNight(stats change: (inout RunStats) -> Void) throws -> (header: [String: String], records: [[UInt8]]) {
      var tonight = options
      let nightly = try NightlyState(previous: previous, job: .group(options))
      tonight.read.nightly = nightly
      let path = directory.appendingPathComponent("staged-\(UUID().uuidString)").path
      let descriptor = SystemCalls.openFile(path, [.writeOnly, .create, .exclusive], mode: 0o600)
      try #require(descriptor >= 0)
      defer { SystemCalls.closeDescriptor(descriptor) }
      nightly.stage(into: descriptor, name: path)
      var stats = try GroupPipeline(options: tonight).run(paths: [tonightInput]).stats
      // The second pass wrote the whole state already.
      let written = try Self.contents(ofState: path)
      change(&stats)
      try nightly.write(toDescriptor: descriptor, name: path, stats: stats)
      let final = try Self.contents(ofState: path)
      if stats.lines == 6 { #expect(final.records == written.records && final.header == written.header) }
      return final
    }
    let asRun = try stagedNight { _ in }
    let otherStats = try stagedNight { $0.lines += 1 }
    #expect(asRun.records.count == 4)
    #expect(asRun.records == otherStats.records)
    #expect(asRun.header["count.lines"] == "6" && otherStats.header["count.lines"] == "7")
  }

  @Test("Tonight's key hashes: every one passes the filter, few others do; past the keys an id budget keeps, no filter")
  func tonightKeyFilter() throws {
    let hashes = (0..<5_000).map { Array("key-\($0)".utf8).withUnsafeBytes { DedupeKeyHash.hash($0) } }
    func partitions(taking count: Int) throws -> IDPartitions {
      // A night's partitions: tonight's entries noted as they are taken, a partition at a time.
      let taking = IDPartitions(
        budget: 1, temporaryParent: nil, nightly: try NightlyState(previous: nil, job: .group(GroupOptions())),
        register: { _ in })
      for partition in 0..<IDPartitions.partitionCount {
        var held: [UInt8] = []
        for (index, hash) in hashes.prefix(count).enumerated() where IDPartitions.partition(hash) == partition {
          held += DedupeAtScaleTests.entry("key-\(index)", hash: hash, seconds: 0, place: UInt64(index))
        }
        if !held.isEmpty { try held.withUnsafeBytes { try taking.take($0, partition: partition) } }
      }
      return taking
    }
    let kept = try partitions(taking: 4_000)
    defer { kept.remove() }
    #expect(kept.maxKeyHashes == 4_096)
    let filter = try #require(kept.tonightKeyFilter())
    #expect(hashes.prefix(4_000).allSatisfy { filter.mayContain($0) })
    // About 32 bits a key, one bit each: a few hundredths of the others pass.
    let passing = (0..<100_000).filter { filter.mayContain(withUnsafeBytes(of: $0) { DedupeKeyHash.hash($0) }) }.count
    #expect(passing < 5_000, "\(passing) of 100,000 other keys passed")
    // Asked once: later entries (the previous state's) are not noted.
    #expect(kept.tonightKeyFilter() == nil)
    let tooMany = try partitions(taking: 5_000)
    defer { tooMany.remove() }
    #expect(tooMany.tonightKeyFilter() == nil)
  }

  /// A copy of the state at `path` whose record of `id` has an amount that is no number, written
  /// with checksums that match: damage only decoding finds.
  static func withUndecodableAmount(_ path: String, id: String) throws -> String {
    let (_, records) = try contents(ofState: path)
    let reader = try StateFileReader(path: path)
    let damaged = path + ".damaged"
    let descriptor = SystemCalls.openFile(damaged, [.writeOnly, .create, .exclusive], mode: 0o600)
    try #require(descriptor >= 0)
    defer { SystemCalls.closeDescriptor(descriptor) }
    let writer = try StateFileWriter(descriptor: descriptor, name: damaged, header: reader.header)
    for record in records {
      var bytes = record
      try record.withUnsafeBytes { payload in
        let fields = try #require(StateRecord.fields(of: payload))
        guard Array(fields.id) == Array(id.utf8) else { return }
        bytes = Array(payload.prefix(2))
        let required = [fields.id, fields.instant, fields.amount, fields.currency, fields.state]
        let optional = [fields.account, fields.description, fields.category, fields.counterparty, fields.fee]
        for (index, field) in (required + optional.compactMap { $0 }).enumerated() {
          let value = index == 2 ? Array("x".utf8) : Array(field)
          StateFile.appendU32(UInt32(value.count), to: &bytes)
          bytes += value
        }
      }
      try bytes.withUnsafeBytes { try writer.append($0) }
    }
    try writer.finish()
    return damaged
  }

  @Test(
    "A state record that does not decode (its checksums intact) fails the night as damage, in either pass, for every job",
    arguments: ["a", "c"])
  func undecodableRecord(id: String) throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // "a" is one of tonight's keys: without accounts its record is decoded in the first pass; "c" is
    // not: in the second. Per account, both are decoded in the second (the merge matches the keys).
    let tonight = try Self.write(Self.nights[1], "night1.jsonl", in: directory)
    func refused(_ run: () throws -> Void) {
      do {
        try run()
        Issue.record("a state with a record that does not decode was read")
      } catch {
        #expect("\(error)".contains("damaged"), "\(error)")
      }
    }
    for perAccount in [false, true] {
      var options = GroupOptions()
      if perAccount { options.read.accounts = .field }
      let damaged = try Self.withUndecodableAmount(
        try Self.firstNight(options, state: "group-\(perAccount)", in: directory), id: id)
      refused {
        var night = options
        night.read.nightly = try NightlyState(previous: damaged, job: .group(options))
        if perAccount {
          let cursor = try GroupPipeline(options: night).runPerAccount(paths: [tonight])
          while try cursor.next() != nil {}
        } else {
          _ = try GroupPipeline(options: night).run(paths: [tonight])
        }
      }
    }
    var list = ListOptions()
    list.read.nightly = try NightlyState(previous: nil, job: .list(list))
    let rows = try ListPipeline(options: list).run(paths: [
      try Self.write(Self.nights[0], "night0.jsonl", in: directory)
    ])
    while try rows.next() != nil {}
    let listState = directory.appendingPathComponent("list").path
    try #require(list.read.nightly).write(to: listState, stats: rows.stats)
    let damaged = try Self.withUndecodableAmount(listState, id: id)
    refused {
      var night = ListOptions()
      night.read.nightly = try NightlyState(previous: damaged, job: .list(night))
      let cursor = try ListPipeline(options: night).run(paths: [tonight])
      while try cursor.next() != nil {}
    }
  }

  @Test("Accounts from file names: night k per account equals --dedupe over nights 1…k")
  func accountsFromFileNames() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var options = GroupOptions()
    options.read.accounts = .fileName
    var previous: String?
    var inputs: [String] = []
    func accounts(_ cursor: AccountReportCursor) throws -> [String] {
      var found: [String] = []
      while let account = try cursor.next() {
        found.append("\(account.account) \(account.count) \(account.sections.map { $0.groups.map(\.count) })")
      }
      return found
    }
    for (index, night) in Self.nights.enumerated() {
      // Each night's records of account X in a file named X.jsonl, of Y in Y.jsonl.
      let nightDirectory = directory.appendingPathComponent("night\(index)")
      try FileManager.default.createDirectory(at: nightDirectory, withIntermediateDirectories: true)
      let paths = try ["X", "Y"].map { account in
        try Self.write(
          night.filter { $0.contains(#""arrangementId":"\#(account)""#) }, "\(account).jsonl", in: nightDirectory)
      }
      inputs += paths
      var tonight = options
      tonight.read.nightly = try NightlyState(previous: previous, job: .group(options))
      let cursor = try GroupPipeline(options: tonight).runPerAccount(paths: paths)
      let found = try accounts(cursor)
      let state = directory.appendingPathComponent("state\(index)").path
      try #require(tonight.read.nightly).write(to: state, stats: cursor.stats)
      var full = options
      full.dedupe = true
      #expect(found == (try accounts(try GroupPipeline(options: full).runPerAccount(paths: inputs))), "night \(index)")
      #expect(found.count == 2)
      previous = state
    }
  }

  /// A list or summary state said `--timezone (as written)` whatever its zone while their zone was
  /// the filter's; now that `read.zone` is theirs, such a state goes on in the run's zone (its
  /// next state names it), while a zone that differs from one a state names is refused.
  @Test("A list state without a zone goes on in a zoned run; a named zone that differs is refused")
  func listStateZone() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try Self.write(Self.nights[0], "night.jsonl", in: directory)
    func state(_ options: ListOptions, _ name: String) throws -> String {
      var options = options
      options.read.nightly = try NightlyState(previous: nil, job: .list(options))
      let cursor = try ListPipeline(options: options).run(paths: [path])
      _ = try cursor.remainingTransactions()
      let state = directory.appendingPathComponent(name).path
      try #require(options.read.nightly).write(to: state, stats: cursor.stats)
      return state
    }
    var berlin = ListOptions()
    berlin.read.zone = try ZoneResolver.named("Europe/Berlin")
    let unzoned = try state(ListOptions(), "unzoned")
    _ = try NightlyState(previous: unzoned, job: .list(berlin))
    let zoned = try state(berlin, "zoned")
    var tokyo = ListOptions()
    tokyo.read.zone = try ZoneResolver.named("Asia/Tokyo")
    #expect {
      _ = try NightlyState(previous: zoned, job: .list(tokyo), names: .flags)
    } throws: { error in
      "\(error)".contains("--timezone Europe/Berlin; this run has --timezone Asia/Tokyo")
    }
    #expect(throws: StateFileError.self) { _ = try NightlyState(previous: zoned, job: .list(ListOptions())) }
  }

  @Test("The state refuses other settings and its own path as tonight's state")
  func refusals() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try Self.write(Self.nights[0], "night.jsonl", in: directory)
    var options = GroupOptions()
    options.read.nightly = try NightlyState(previous: nil, job: .group(options))
    let report = try GroupPipeline(options: options).run(paths: [path])
    let state = directory.appendingPathComponent("s").path
    try #require(options.read.nightly).write(to: state, stats: report.stats)
    var berlin = GroupOptions()
    berlin.read.zone = try ZoneResolver.named("Europe/Berlin")
    #expect {
      _ = try NightlyState(previous: state, job: .group(berlin))
    } throws: { error in
      "\(error)".contains("zone (as written); this run has zone Europe/Berlin")
    }
    #expect {
      _ = try NightlyState(previous: state, job: .group(berlin), names: .flags)
    } throws: { error in
      "\(error)".contains("--timezone (as written); this run has --timezone Europe/Berlin")
    }
    let again = try NightlyState(previous: state, job: .group(GroupOptions()))
    #expect(throws: PipelineError.self) { try again.write(to: state, stats: report.stats) }
  }

  @Test("Tonight's records past the budget go to disk as sorted runs; the cursor merges them in (account, place) order")
  func tonightSpills() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The least budget (64 KiB) holds several hand-overs' sorted runs, merged into one on disk when
    // past it; the last ones are still held at the end.
    let records = TonightRecords(budget: 1, temporaryParent: directory.path, register: { _ in })
    var expected: [(account: String, place: UInt64)] = []
    var place: UInt64 = 0
    // Accounts that share their first 16 bytes or are a prefix of another, one with a zero byte.
    let accounts =
      (0..<50).map { "acct-\($0)" }
      + [
        "a-very-long-account-0001", "a-very-long-account-0002", "a-very-long-account-000", "a-very-long-acc",
        "a-very-long-account-00010", "acct-1\u{0}", "acct-1\u{0}\u{0}x", "sixteen-bytes-ab", "sixteen-bytes-ab\u{0}",
        "é-account",
      ]
    for batch in 0..<40 {
      var entries: [UInt8] = []
      for index in 0..<100 {
        place += 1
        let account = accounts[(batch * 7 + index * 13) % accounts.count]
        var payload: [UInt8] = [StateRecord.Flags.hasAccount.rawValue, 0]
        for field in ["id\(place)", "2024-03-01", "1.00", "EUR", "COMPLETED", account] {
          StateFile.appendU32(UInt32(field.utf8.count), to: &payload)
          payload.append(contentsOf: field.utf8)
        }
        StateFile.appendU64(place, to: &entries)
        StateFile.appendU32(UInt32(payload.count), to: &entries)
        entries.append(contentsOf: payload)
        if place % 10 != 0 { expected.append((account, place)) }
      }
      try records.take(entries)
    }
    #expect(records.runCount > 1 && records.runCount < 40)
    let losers = (1...place).filter { $0 % 10 == 0 }
    expected.sort {
      $0.account != $1.account ? Array($0.account.utf8).lexicographicallyPrecedes($1.account.utf8) : $0.place < $1.place
    }
    // Twice: a night asks for its winners more than once (the runs held are read from their start again).
    for _ in 0..<2 {
      let cursor = try records.cursor(skipping: losers)
      var seen: [(account: String, place: UInt64)] = []
      while let source = cursor.current {
        seen.append((String(decoding: source.account, as: UTF8.self), source.place))
        try cursor.advance()
      }
      #expect(seen.map(\.account) == expected.map(\.account))
      #expect(seen.map(\.place) == expected.map(\.place))
    }
  }

  @Test("Codec: header entries and records read back as written, a cut one refused")
  func codec() throws {
    let header = StateHeader(entries: [("setting.--schema", "auto"), ("count.lines", "3"), ("empty", "")])
    let encoded = header.encoded
    #expect(encoded.withUnsafeBytes { StateHeader(decoding: $0) } == header)
    #expect(encoded.dropLast().withUnsafeBytes { StateHeader(decoding: UnsafeRawBufferPointer($0)) } == nil)
    // A payload missing its last field is no record.
    var payload: [UInt8] = [StateRecord.Flags.hasAccount.rawValue, 1]
    for field in ["id", "2024-03-01", "-1.50", "EUR", "COMPLETED"] {
      StateFile.appendU32(UInt32(field.utf8.count), to: &payload)
      payload.append(contentsOf: field.utf8)
    }
    #expect(payload.withUnsafeBytes { StateRecord.fields(of: $0) } == nil)
    StateFile.appendU32(1, to: &payload)
    payload.append(UInt8(ascii: "A"))
    let fields = try #require(payload.withUnsafeBytes { StateRecord.fields(of: $0) })
    #expect(fields.indicator == .debit)
    #expect(String(decoding: try #require(fields.account), as: UTF8.self) == "A")
    // The second pass decodes it as the JSON record it stands for.
    let decoder = RecordDecoder(schema: NightlyState.stateSchema)
    var decoded = DecodedRecord()
    #expect(payload.withUnsafeBufferPointer { StateRecord.decode($0, with: decoder, into: &decoded) } == nil)
    func text(_ ref: ValueRef) -> String { String(decoding: payload[ref.start..<ref.end], as: UTF8.self) }
    #expect(text(decoded.id) == "id" && text(decoded.currency) == "EUR" && text(decoded.state) == "COMPLETED")
    #expect(text(decoded.account) == "A" && decoded.description.kind == .absent && decoded.fee == nil)
    #expect(decoded.amount == "-1.50" && decoded.indicator == .debit)
    #expect(decoded.day == CalendarDay(year: 2024, month: 3, day: 1))
    // A payload no accepted record gives is refused with the JSON record's reason.
    func reason(replacing field: String, with value: [UInt8]) -> RejectReason? {
      var damaged: [UInt8] = [StateRecord.Flags.hasAccount.rawValue, 1]
      for (name, written) in [
        ("id", "id"), ("instant", "2024-03-01"), ("amount", "-1.50"), ("currency", "EUR"),
        ("state", "COMPLETED"), ("account", "A"),
      ] {
        let bytes = name == field ? value : Array(written.utf8)
        StateFile.appendU32(UInt32(bytes.count), to: &damaged)
        damaged.append(contentsOf: bytes)
      }
      return damaged.withUnsafeBufferPointer { StateRecord.decode($0, with: decoder, into: &decoded) }?.reason
    }
    #expect(reason(replacing: "amount", with: Array("1.5.0".utf8)) == .invalidAmount)
    #expect(reason(replacing: "instant", with: Array("2024-02-30".utf8)) == .invalidTimestamp)
    #expect(reason(replacing: "currency", with: []) == .invalidField)
    #expect(reason(replacing: "id", with: [0xFF]) == .invalidField)
    #expect(reason(replacing: "account", with: [0xC3]) == .invalidUTF8)
  }
}
