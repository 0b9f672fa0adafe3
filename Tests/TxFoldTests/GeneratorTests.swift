import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// `TransactionGenerator` (`txfold gen`) and its PRNG: determinism, chunking, and that the
/// dump is valid Backbase JSON lines with the variety the decoder's tests rely on.
@Suite struct GeneratorTests {
  /// The dump the content tests share: big enough that every rare case shows up.
  static let sample = generate(count: 10_000, seed: 42)
  /// The accounts of the first eight records of seed 42 over 1,000 accounts (`accountsOfASeedAreFixed`).
  static let expectedAccountsOfSeed42 = [
    "A0000000010", "A0000000049", "A0000000000", "A0000000031", "A0000000000", "A0000000002", "A0000000153",
    "A0000000231",
  ]

  // MARK: Helpers

  /// The whole dump as one byte array, with the flush threshold given.
  static func generate(
    count: Int, seed: UInt64, accounts: Int = 0, schema: GeneratorSchema = .backbase, flushThreshold: Int = Int.max
  ) -> [UInt8] {
    var all: [UInt8] = []
    TransactionGenerator(
      options: GeneratorOptions(count: count, seed: seed, accounts: accounts, schema: schema),
      flushThreshold: flushThreshold
    ).generate { chunk in all += chunk }
    return all
  }

  /// The lines of `bytes`, without their newlines (a final newline ends the last line).
  static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// Every line parsed with Foundation, as an independent check of the bytes.
  static func records(of bytes: [UInt8]) throws -> [[String: Any]] {
    try lines(of: bytes).map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line))
      return try #require(object as? [String: Any], "not an object: \(String(decoding: line, as: UTF8.self))")
    }
  }

  /// True for a valid `YYYY-MM-DD` calendar date.
  static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
    guard (1...12).contains(month), day >= 1 else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return day <= lengths[month - 1]
  }

  /// The timestamp forms of Documentation/Formats.md ("Timestamps and days") that the generator writes.
  enum TimeForm: Hashable { case plain, millis, zulu, colonOffset, compactOffset, millisZulu, date }

  /// The form of `text`, or nil when it is not an accepted, valid timestamp. Hand-rolled
  /// rather than a `Regex`, which is slow enough in debug builds to dominate this suite.
  static func timeForm(_ text: String) -> TimeForm? {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, is character: Unicode.Scalar) -> Bool {
      index < bytes.count && bytes[index] == UInt8(ascii: character)
    }
    guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
      let day = number(8..<10), isValidDate(year: year, month: month, day: day)
    else { return nil }
    if bytes.count == 10 { return .date }
    guard byte(10, is: "T"), let hour = number(11..<13), byte(13, is: ":"),
      let minute = number(14..<16), byte(16, is: ":"), let second = number(17..<19),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let millis = byte(19, is: ".")
    if millis && number(20..<23) == nil { return nil }
    let zone = millis ? 23 : 19  // where a `Z` or an offset starts
    let signed = byte(zone, is: "+") || byte(zone, is: "-")
    switch (millis, bytes.count - zone) {
    case (false, 0): return .plain
    case (true, 0): return .millis
    case (false, 1) where byte(zone, is: "Z"): return .zulu
    case (true, 1) where byte(zone, is: "Z"): return .millisZulu
    case (false, 6)
    where signed && number(zone + 1..<zone + 3) != nil && byte(zone + 3, is: ":")
      && number(zone + 4..<zone + 6) != nil:
      return .colonOffset
    case (false, 5) where signed && number(zone + 1..<zone + 5) != nil: return .compactOffset
    default: return nil
    }
  }

  /// True for a decimal magnitude written like `0`, `7.5`, `1919.95` or `12.345`.
  static func isAmountText(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard let integer = parts.first, parts.count <= 2, !integer.isEmpty,
      integer == "0" || integer.first != "0"
    else { return false }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard parts.count == 1 || (1...3).contains(fraction.count) else { return false }
    return (integer + fraction).allSatisfy { $0.isASCII && $0.isNumber }
  }

  // MARK: Accounts (`txfold gen --accounts N`)

  /// The account of each line of a dump made with accounts, and the line without it.
  static func splitAccount(_ line: ArraySlice<UInt8>) -> (account: String, rest: [UInt8])? {
    for prefix in [#"{"arrangementId":""#, #"{"arrangementId": ""#] {
      let bytes = Array(prefix.utf8)
      guard line.starts(with: bytes) else { continue }
      let start = line.startIndex + bytes.count
      guard let quote = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
      // Drop the key, the value and the separator after it (`,` or `, `).
      var next = quote + 1
      guard next < line.endIndex, line[next] == UInt8(ascii: ",") else { return nil }
      next += 1
      if line[next] == UInt8(ascii: " ") { next += 1 }
      return (String(decoding: line[start..<quote], as: UTF8.self), [UInt8(ascii: "{")] + line[next...])
    }
    return nil
  }

  @Test func accountsAddOnlyAnArrangementIDToEachRecord() throws {
    let plain = Self.lines(of: Self.generate(count: 3_000, seed: 11))
    let withAccounts = Self.lines(of: Self.generate(count: 3_000, seed: 11, accounts: 500))
    #expect(plain.count == withAccounts.count)
    for (line, other) in zip(plain, withAccounts) {
      let split = try #require(Self.splitAccount(other), "\(String(decoding: other, as: UTF8.self))")
      #expect(split.rest == Array(line))
      #expect(split.account.count == 11 && split.account.first == "A")
      #expect(split.account.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
      #expect(Int(split.account.dropFirst()).map { $0 < 500 } == true)
    }
  }

  @Test func accountsOfASeedAreFixed() throws {
    // Reviewed: the first draws of seed 42 over 1,000 accounts (A0000000000 is the one corporate account).
    let accounts = try Self.lines(of: Self.generate(count: 8, seed: 42, accounts: 1_000)).map {
      try #require(Self.splitAccount($0)).account
    }
    #expect(accounts == Self.expectedAccountsOfSeed42)
    #expect(Self.generate(count: 500, seed: 5, accounts: 77) == Self.generate(count: 500, seed: 5, accounts: 77))
  }

  @Test func accountsAreSkewedLikeABanksExport() throws {
    let count = 40_000
    var perAccount: [String: Int] = [:]
    for line in Self.lines(of: Self.generate(count: count, seed: 3, accounts: 4_000)) {
      perAccount[try #require(Self.splitAccount(line)).account, default: 0] += 1
    }
    // One corporate account per 50,000 accounts, at least one: it holds about 30 %.
    let corporate = try #require(perAccount["A0000000000"])
    #expect((count * 27 / 100...count * 33 / 100).contains(corporate), "\(corporate)")
    #expect(perAccount.keys.allSatisfy { $0 < "A0000004000" })
    let sizes = perAccount.values.sorted()
    // A long tail: most accounts hold a handful, and most of the accounts appear.
    #expect(sizes[sizes.count / 2] <= 10, "median \(sizes[sizes.count / 2])")
    #expect(perAccount.count > 2_000, "\(perAccount.count) accounts")
    // Bigger accounts too: the first tail account holds far more than the median one.
    #expect(try #require(perAccount["A0000000001"]) > 50 * sizes[sizes.count / 2])
  }

  @Test func manyCorporateAccountsForABankSizedDump() {
    var draw = AccountDraw(seed: 1, accounts: 200_000)
    #expect(draw.corporate == 4)
    var corporate = 0
    for _ in 0..<10_000 where draw.next().map({ $0 < 4 }) == true { corporate += 1 }
    #expect((2_700...3_300).contains(corporate))
    var none = AccountDraw(seed: 1, accounts: 0)
    #expect(none.next() == nil)
    var single = AccountDraw(seed: 1, accounts: 1)
    #expect((0..<100).allSatisfy { _ in single.next() == 0 })
  }

  @Test func dumpWithAccountsIsFoldedWhole() throws {
    let bytes = Self.generate(count: 5_000, seed: 8, accounts: 300)
    var options = GroupOptions()
    options.threads = 1
    let result = try GroupPipeline(options: options).run(sources: [InputOpener.open(bytes: bytes, name: "-")])
    #expect(result.stats.accepted == 5_000)
    #expect(result.stats.rejected == 0)
  }

  // MARK: Determinism

  @Test func sameSeedGivesSameBytes() {
    let first = Self.generate(count: 2_000, seed: 7)
    let second = Self.generate(count: 2_000, seed: 7)
    #expect(!first.isEmpty)
    #expect(first == second)
  }

  @Test func differentSeedsGiveDifferentBytes() {
    let one = Self.lines(of: Self.generate(count: 500, seed: 1))
    let two = Self.lines(of: Self.generate(count: 500, seed: 2))
    #expect(one != two)
    // Not just one differing line: the whole sequence changes.
    let same = zip(one, two).filter { $0.0 == $0.1 }.count
    #expect(same < 10)
  }

  @Test(arguments: [0, 1, 2, 7, 1_000, 3_333])
  func lineCountIsCount(count: Int) {
    let bytes = Self.generate(count: count, seed: 3)
    #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == count)
    #expect(bytes.last == (count > 0 ? UInt8(ascii: "\n") : nil))
    #expect(Self.lines(of: bytes).allSatisfy { !$0.isEmpty })
  }

  @Test func negativeCountGivesEmptyDump() {
    var calls = 0
    TransactionGenerator(options: GeneratorOptions(count: -5)).generate { chunk in
      calls += 1
      #expect(chunk.isEmpty)
    }
    #expect(calls == 1)
  }

  // MARK: Chunking

  @Test func chunksConcatenateToTheSingleBufferRun() {
    let single = Self.sample
    var chunks: [[UInt8]] = []
    TransactionGenerator(options: GeneratorOptions(count: 10_000, seed: 42)).generate { chunk in
      chunks.append(chunk)
    }
    // About 4 MiB, so several ~1 MiB chunks plus the final rest.
    #expect(chunks.count >= 4)
    #expect(chunks.dropLast().allSatisfy { $0.count >= 1 << 20 && $0.count < (1 << 20) + 4_096 })
    #expect(chunks.allSatisfy { $0.isEmpty || $0.last == UInt8(ascii: "\n") })
    #expect(Array(chunks.joined()) == single)
  }

  @Test func singleBufferRunFlushesOnce() {
    var calls = 0
    TransactionGenerator(
      options: GeneratorOptions(count: 100, seed: 42), flushThreshold: Int.max
    ).generate { _ in calls += 1 }
    #expect(calls == 1)
  }

  @Test func tinyThresholdFlushesEveryRecordThenAnEmptyEnd() {
    var chunks: [[UInt8]] = []
    TransactionGenerator(
      options: GeneratorOptions(count: 50, seed: 9), flushThreshold: 1
    ).generate { chunk in chunks.append(chunk) }
    #expect(chunks.count == 51)
    #expect(chunks.last?.isEmpty == true)
    #expect(chunks.dropLast().allSatisfy { $0.filter { $0 == UInt8(ascii: "\n") }.count == 1 })
    #expect(Array(chunks.joined()) == Self.generate(count: 50, seed: 9))
  }

  struct Stop: Error, Equatable {}

  @Test func flushErrorStopsGeneration() {
    var calls = 0
    #expect(throws: Stop()) {
      try TransactionGenerator(
        options: GeneratorOptions(count: 1_000, seed: 1), flushThreshold: 1
      ).generate { (_: inout [UInt8]) throws(Stop) in
        calls += 1
        if calls == 2 { throw Stop() }
      }
    }
    #expect(calls == 2)
  }

  // MARK: Content

  @Test func everyLineIsABackbaseRecord() throws {
    let records = try Self.records(of: Self.sample)
    #expect(records.count == 10_000)
    for record in records {
      let id = record["id"]
      #expect(id is String || id is Int, "id \(String(describing: id))")
      let money = try #require(record["transactionAmountCurrency"] as? [String: Any])
      let amount = try #require(money["amount"] as? String)
      #expect(Self.isAmountText(amount), "amount \(amount)")
      #expect(amount.contains { $0 != "0" && $0 != "." }, "zero amount")
      let currency = try #require(money["currencyCode"] as? String)
      #expect(["EUR", "USD", "GBP", "CHF", "JPY"].contains(currency))
      let indicator = try #require(record["creditDebitIndicator"] as? String)
      #expect(indicator == "CRDT" || indicator == "DBIT")
      let state = try #require(record["state"] as? String)
      #expect(state == "PENDING" || state == "COMPLETED")
      let time = try #require(record["creationTime"] as? String)
      #expect(Self.timeForm(time) != nil, "creationTime \(time)")
      for key in [
        "description", "typeGroup", "type", "counterPartyName", "counterPartyAccountNumber",
        "counterPartyCity", "counterPartyAddress",
      ] {
        if let value = record[key] { #expect(value is String, "\(key) \(value)") }
      }
      if let category = record["category"] { #expect(category is String || category is Int) }
    }
  }

  /// The value at a dotted `path` of `record`, as `RecordSchema` reads it.
  static func value(at path: String, in record: [String: Any]) -> Any? {
    var current: Any? = record
    for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
    return current
  }

  @Test(arguments: GeneratorSchema.allCases)
  func everySchemaWritesTheSameRecordsInItsOwnFields(schema: GeneratorSchema) throws {
    let backbase = try Self.records(of: Self.generate(count: 2_000, seed: 42))
    let records = try Self.records(of: Self.generate(count: 2_000, seed: 42, schema: schema))
    #expect(records.count == backbase.count)
    let reading = try #require(RecordSchema.named(schema.rawValue))
    let paths = reading.paths
    func first(_ field: CanonicalField, of record: [String: Any]) -> Any? {
      (paths[field] ?? []).lazy.compactMap { Self.value(at: $0, in: record) }.first
    }
    for (record, original) in zip(records, backbase) {
      // The same stream of draws: ids and instants agree line by line.
      if schema.carriesID { #expect("\(first(.id, of: record)!)" == "\(original["id"]!)") }
      #expect(first(.instant, of: record) as? String == original["creationTime"] as? String)
      // A signed amount is negative exactly for a debit.
      let amount = "\(first(.amount, of: record)!)"
      let debit = original["creditDebitIndicator"] as? String == "DBIT"
      #expect(amount.hasPrefix("-") == (debit && !reading.amountIsMagnitude), "\(amount)")
    }
  }

  @Test func sampleHasTheVarietyTheDecoderNeeds() throws {
    let records = try Self.records(of: Self.sample)
    func count(_ predicate: ([String: Any]) -> Bool) -> Int { records.filter(predicate).count }

    #expect(count { $0["state"] as? String == "PENDING" } > 500)
    #expect(count { $0["state"] as? String == "COMPLETED" } > 8_000)
    let debits = count { $0["creditDebitIndicator"] as? String == "DBIT" }
    let credits = count { $0["creditDebitIndicator"] as? String == "CRDT" }
    #expect(credits > 1_000 && debits > credits)

    func money(_ record: [String: Any], _ key: String) -> String? {
      (record["transactionAmountCurrency"] as? [String: Any])?[key] as? String
    }
    let currencies = Set(records.compactMap { money($0, "currencyCode") })
    #expect(currencies == ["EUR", "USD", "GBP", "CHF", "JPY"])
    let euros = count { money($0, "currencyCode") == "EUR" }
    #expect(euros > 7_000)
    let fractionDigits = Set(
      records.compactMap { record -> Int? in
        guard let amount = money(record, "amount") else { return nil }
        return amount.split(separator: ".").dropFirst().first?.count ?? 0
      })
    #expect(fractionDigits == [0, 1, 2, 3])

    #expect(count { $0["id"] is Int } > 100)
    #expect(Set(records.compactMap { $0["id"] as? String }).count + count { $0["id"] is Int } == 10_000)
    #expect(count { $0["category"] is Int } > 50)
    #expect(count { $0["category"] == nil } > 50)
    #expect(count { $0["description"] == nil } > 50)
    #expect(count { $0["description"] as? String == "" } > 50)
    for key in ["counterPartyName", "counterPartyAccountNumber", "counterPartyCity", "counterPartyAddress"] {
      let present = count { $0[key] != nil }
      #expect(present > 1_000 && present < 9_500, "\(key): \(present)")
    }

    // Decoded descriptions: escapes and raw UTF-8 both round-trip to these characters.
    let descriptions = records.compactMap { $0["description"] as? String }
    for fragment in ["\"", "\\", "/", "\t", "é", "Ł", "東京", "😀", "–"] {
      #expect(descriptions.contains { $0.contains(fragment) }, "no description with \(fragment)")
    }
    // Escaped as well as raw forms in the bytes themselves.
    let text = String(decoding: Self.sample, as: UTF8.self)
    for written in [#"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, "Café Müller", "Łódź", "東京"] {
      #expect(text.contains(written), "\(written) never written")
    }

    // Unknown fields to skip, nested ones included.
    #expect(count { $0["originalDescription"] != nil } > 100)
    #expect(count { $0["tags"] is [Any] } > 20)
    #expect(count { $0["meta"] is [String: Any] } > 20)
    // Key order varies, and some records use spaces between tokens.
    let lines = Self.lines(of: Self.sample)
    let firstKeyNotID = lines.filter { !$0.starts(with: Array(#"{"id""#.utf8)) }.count
    #expect(firstKeyNotID > 300)
    #expect(lines.contains { $0.starts(with: Array(#"{"id": "#.utf8)) })

    let forms = records.compactMap { ($0["creationTime"] as? String).flatMap(Self.timeForm) }
    #expect(Set(forms) == [.plain, .millis, .zulu, .colonOffset, .compactOffset, .millisZulu, .date])
    #expect(forms.filter { $0 == .plain }.count > 6_000)
  }

  @Test func timesSpanTwoYearsRisingRoughlyWithTheLine() throws {
    let records = try Self.records(of: Self.sample)
    let days = records.compactMap { ($0["creationTime"] as? String)?.prefix(10) }.map(String.init)
    #expect(days.count == records.count)
    #expect(days.first?.hasPrefix("2023-01") == true)
    #expect(days.last?.hasPrefix("2024-12") == true)
    #expect(Set(days).count > 600)
    // Roughly sorted: a day never goes back by more than the jitter allows…
    let backwards = zip(days, days.dropFirst()).filter { $0.0 > $0.1 }
    #expect(!backwards.isEmpty, "real exports are not strictly sorted")
    #expect(backwards.count < 500)
    // …and PENDING only in the most recent days (the last eighth of the span).
    let pendingDays = zip(records, days).filter { $0.0["state"] as? String == "PENDING" }.map(\.1)
    #expect(pendingDays.allSatisfy { $0 >= "2024-10-01" })
  }

  // MARK: Building blocks

  /// The content checks above are only as strict as this helper, so it is checked too.
  @Test(
    arguments: [
      ("2019-05-15T14:28:01", TimeForm.plain), ("2019-05-15T14:28:01.123", .millis),
      ("2019-05-15T14:28:01Z", .zulu), ("2019-05-15T14:28:01+02:00", .colonOffset),
      ("2022-07-10T10:59:05+0200", .compactOffset), ("2018-07-11T22:49:24.000Z", .millisZulu),
      ("2024-02-29", .date), ("2019-02-30T10:00:00", nil), ("2023-02-29", nil),
      ("2019-05-15T25:00:00", nil), ("2019-05-15T10:00:60", nil), ("2019-05-15 10:00:00", nil),
      ("2019-05-15T10:00:00+02", nil), ("2019-05-15T10:00:00.12", nil),
    ] as [(String, TimeForm?)])
  func timestampChecker(text: String, form: TimeForm?) {
    #expect(Self.timeForm(text) == form)
  }

  @Test func amountChecker() {
    for good in ["0", "7.5", "5200", "1919.95", "12.345", "0.10"] { #expect(Self.isAmountText(good), "\(good)") }
    for bad in ["", "07", "1.", ".5", "1.2345", "-1", "1e3", "1,5"] { #expect(!Self.isAmountText(bad), "\(bad)") }
  }

  @Test func splitMixMatchesTheReferenceSequence() {
    // Reference outputs of Vigna's splitmix64.c (also Java's SplittableRandom test vector).
    var zero = SplitMix64(seed: 0)
    #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
    var other = SplitMix64(seed: 1_234_567)
    #expect(other.next() == 6_457_827_717_110_365_317)
    #expect(other.next() == 3_203_168_211_198_807_973)
    #expect(other.next() == 9_817_491_932_198_370_423)
  }

  @Test func boundedDrawsStayInRange() {
    var rng = SplitMix64(seed: 5)
    var seen = Set<Int>()
    for _ in 0..<1_000 {
      let value = rng.next(below: 7)
      #expect((0..<7).contains(value))
      seen.insert(value)
    }
    #expect(seen.count == 7)
    #expect(rng.next(below: 0) == 0)
    #expect(rng.next(below: 1) == 0)
  }

  @Test(arguments: [
    (0, 1970, 1, 1), (11_016, 2000, 2, 29), (19_358, 2023, 1, 1), (19_782, 2024, 2, 29),
    (20_088, 2024, 12, 31),
  ])
  func civilDates(days: Int, year: Int, month: Int, day: Int) {
    let date = TransactionGenerator.civilDate(fromDays: days)
    #expect(date.year == year && date.month == month && date.day == day)
  }
}
