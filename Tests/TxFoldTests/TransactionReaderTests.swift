import Testing

@testable import TxFold

/// `TransactionReader`: materialised transactions, accounting, line numbers,
/// the stop rules, and the consumer's errors.
@Suite("Transaction reader")
struct TransactionReaderTests {
  struct Stop: Error, Equatable {}

  static func read(
    _ paths: [String], options: ReadOptions = ReadOptions(), rejections: inout [RecordRejection]
  ) throws -> (transactions: [Transaction], positions: [Int], stats: RunStats) {
    let reader = TransactionReader(options: options)
    var collected: [RecordRejection] = []
    reader.onRejection = { collected.append($0) }
    var transactions: [Transaction] = []
    var positions: [Int] = []
    let stats = try reader.read(paths: paths) { (transaction, position) throws(Never) in
      transactions.append(transaction)
      positions.append(position)
    }
    rejections = collected
    return (transactions, positions, stats)
  }

  @Test("The corpus, decoded: signed amounts, escapes, upper-cased states, optional fields")
  func corpus() throws {
    var rejections: [RecordRejection] = []
    let (transactions, positions, stats) = try Self.read([Fixtures.path("corpus.jsonl")], rejections: &rejections)
    #expect(stats.lines == 8 && stats.accepted == 8 && stats.rejected == 0)
    #expect(rejections.isEmpty)
    #expect(positions == Array(0..<8))
    #expect(
      transactions.map(\.id) == [
        "ec9ec6fd-0001", "ec9ec6fd-0002", "ec9ec6fd-0003", "4734", "ec9ec6fd-0005", "ec9ec6fd-0006",
        "ec9ec6fd-0007", "ec9ec6fd-0008",
      ])
    #expect(
      transactions.map(\.amount.description) == [
        "1919.95", "1919.95", "-7.5", "-42.10", "-5200", "-0.10", "0.20", "12.345",
      ])
    #expect(
      transactions.map(\.state) == Array(repeating: "PENDING", count: 3) + Array(repeating: "COMPLETED", count: 5))
    #expect(transactions[2].description == "Café \"De Kas\" \\ Amsterdam")
    #expect(transactions[3].description == "Zürich Hauptbahnhof 🚆")
    #expect(transactions[5].description == nil)
    #expect(transactions[6].description == "")
    #expect(transactions[7].description == "Refund 😀")
    #expect(transactions[0].category == "Income")
    #expect(transactions[0].counterparty == "Backbase B.V")
    #expect(transactions[1].counterparty == nil)
    #expect(transactions[3].instant.description == "2019-05-16T21:30:00+02:00")
    #expect(transactions.allSatisfy { $0.fee == nil })
  }

  @Test(
    "Every readable variant gives the same transactions",
    arguments: [
      "corpus.jsonl.gz", "corpus-multimember.jsonl.gz", "corpus-crlf.jsonl", "corpus-no-final-newline.jsonl",
      "corpus-bom.jsonl", "corpus-plain-named.jsonl.gz",
    ])
  func variants(name: String) throws {
    var rejections: [RecordRejection] = []
    let expected = try Self.read([Fixtures.path("corpus.jsonl")], rejections: &rejections)
    let variant = try Self.read([Fixtures.path(name)], rejections: &rejections)
    #expect(variant.transactions == expected.transactions)
    #expect(variant.positions == expected.positions)
  }

  @Test("A malformed line is rejected with its line; positions count it; several files number their own lines")
  func rejections() throws {
    var rejections: [RecordRejection] = []
    let path = Fixtures.path("corpus-one-malformed.jsonl")
    let (transactions, positions, stats) = try Self.read([path, path], rejections: &rejections)
    #expect(stats.lines == 18 && stats.accepted == 16 && stats.rejected == 2)
    #expect(stats.rejectedByReason == [.invalidJSON: 2])
    #expect(rejections.map(\.line) == [5, 5])
    #expect(rejections.map(\.file) == [path, path])
    #expect(transactions.count == 16)
    #expect(positions == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17])
  }

  @Test("--strict and --max-rejects stop at the bad record, before anything after it is read")
  func stops() throws {
    for stopRule in ["strict", "max-rejects"] {
      var options = ReadOptions()
      if stopRule == "strict" { options.strict = true } else { options.maxRejects = 0 }
      let reader = TransactionReader(options: options)
      var seen: [String] = []
      #expect("\(stopRule)") {
        _ = try reader.read(typedPaths: [Fixtures.path("corpus-one-malformed.jsonl")]) {
          (transaction, _) throws(Never) in
          seen.append(transaction.id)
        }
      } throws: { error in
        guard case .input(let pipeline) = error as? TransactionReadError<Never> else { return false }
        switch pipeline {
        case .strictRejection(let rejection), .tooManyRejects(_, let rejection): return rejection.line == 5
        default: return false
        }
      }
      #expect(seen.count == 3, "\(stopRule)")
    }
  }

  @Test("Progress is reported after each chunk, up to the stored size")
  func progress() throws {
    var options = ReadOptions()
    options.limits.chunkSize = 256
    let reader = TransactionReader(options: options)
    var reported: [PipelineProgress] = []
    reader.onProgress = { reported.append($0) }
    let stats = try reader.read(paths: [Fixtures.path("corpus.jsonl.gz")]) { (_, _) throws(Never) in }
    #expect(reported.count > 1)
    #expect(zip(reported, reported.dropFirst()).allSatisfy { $0.storedBytesRead <= $1.storedBytesRead })
    #expect(reported.last?.storedBytesRead == stats.bytesRead)
    #expect(reported.allSatisfy { $0.storedBytesTotal == stats.bytesRead })
    #expect(stats.bytesDecoded > stats.bytesRead)
  }

  /// Three PSD2 account reports in one input, each spread over lines: the
  /// first names its account before its transactions, the second only after
  /// them (too late: its record is rejected, as `group` rejects it), the third never.
  static let psd2Reports = """
    {"account": {"iban": "DE02100100109307118603"},
     "transactions": {"booked": [
      {"transactionId": "a1", "bookingDate": "2024-01-02", "transactionAmount": {"amount": "-5.00", "currency": "EUR"}},
      {"transactionId": "a2", "bookingDate": "2024-01-03", "transactionAmount": {"amount": "7.00", "currency": "EUR"}}
     ]}}
    {"transactions": {"pending": [
      {"transactionId": "b1", "bookingDate": "2024-01-04", "transactionAmount": {"amount": "-1.50", "currency": "EUR"}}
     ]},
     "account": {"resourceId": "acc-2"}}
    {"transactions": {"booked": [
      {"transactionId": "c1", "bookingDate": "2024-01-05", "transactionAmount": {"amount": "2.00", "currency": "EUR"}}
     ]}}
    """

  @Test("Per account, a PSD2 record's account is its report's, as group reads it; none yet is a rejection")
  func reportAccounts() throws {
    var options = ReadOptions()
    options.accounts = .field
    for size in [1 << 20, 64, 7] {
      options.limits.chunkSize = size
      let reader = TransactionReader(options: options)
      var rejections: [RecordRejection] = []
      reader.onRejection = { rejections.append($0) }
      var accounts: [String: String] = [:]
      let stats = try reader.read(sources: [MemorySource(Array(Self.psd2Reports.utf8), name: "r.json")]) {
        (transaction, _) throws(Never) in
        accounts[transaction.id] = transaction.account
      }
      #expect(accounts == ["a1": "DE02100100109307118603", "a2": "DE02100100109307118603"], "chunk size \(size)")
      #expect(stats.accepted == 2 && stats.rejected == 2)
      #expect(rejections.map(\.reason) == [.missingField, .missingField])
      #expect(rejections.map(\.field) == ["account", "account"])
      #expect(rejections.map(\.line) == [7, 11], "chunk size \(size)")
    }
  }

  @Test("An error from the consumer stops reading and comes back as it was thrown")
  func consumerError() throws {
    let reader = TransactionReader()
    var calls = 0
    #expect(throws: TransactionReadError<Stop>.self) {
      _ = try reader.read(typedPaths: [Fixtures.path("corpus.jsonl")]) { (_, _) throws(Stop) in
        calls += 1
        if calls == 3 { throw Stop() }
      }
    }
    #expect(calls == 3)
    do {
      _ = try reader.read(typedPaths: [Fixtures.path("corpus.jsonl")]) { (_, _) throws(Stop) in throw Stop() }
    } catch {
      guard case .body(let stop, _) = error else {
        Issue.record("expected the consumer's error, got \(error)")
        return
      }
      #expect(stop == Stop())
    }
  }

  @Test("Category: strings and integers as text; optional fields of another type reject the record")
  func optionalFields() throws {
    let lines = [
      #"{"id":"1","category":12,"transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17","state":"booked"}"#,
      #"{"id":"2","counterPartyName":"Caf\u00e9","transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-17","state":"PENDING"}"#,
      #"{"id":"3","category":1.5,"transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-17","state":"PENDING"}"#,
      #"{"id":"4","counterPartyName":7,"transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-17","state":"PENDING"}"#,
    ]
    var transactions: [Transaction] = []
    var rejections: [RecordRejection] = []
    let reader = TransactionReader()
    reader.onRejection = { rejections.append($0) }
    _ = try reader.read(sources: [MemorySource(Array(lines.joined(separator: "\n").utf8))]) {
      (transaction, _) throws(Never) in transactions.append(transaction)
    }
    #expect(transactions.map(\.category) == ["12", nil])
    #expect(transactions.map(\.counterparty) == [nil, "Café"])
    #expect(transactions.map(\.state) == ["BOOKED", "PENDING"])
    #expect(transactions.map(\.amount.description) == ["1", "-1"])
    #expect(rejections.map(\.reason) == [.invalidField, .invalidField])
    #expect(rejections.map(\.line) == [3, 4])
  }

  @Test("An oversized record is rejected with its line; a JSON array is refused")
  func limitsAndArrays() throws {
    var options = ReadOptions()
    options.limits.maxRecordBytes = 100
    options.limits.chunkSize = 64
    let reader = TransactionReader(options: options)
    var rejections: [RecordRejection] = []
    reader.onRejection = { rejections.append($0) }
    let long = #"{"id":"x","description":""# + String(repeating: "y", count: 300) + #""}"#
    let stats = try reader.read(sources: [MemorySource(Array(("\n" + long + "\n\n" + long).utf8))]) {
      (_, _) throws(Never) in
    }
    #expect(stats.lines == 2 && stats.rejected == 2)
    #expect(rejections.map(\.reason) == [.recordTooLarge, .recordTooLarge])
    #expect(rejections.map(\.line) == [2, 4])
    // A JSON array is read element by element, with the same accounting.
    let array = try TransactionReader().read(sources: [MemorySource(Array("[{}]".utf8))]) { (_, _) throws(Never) in }
    #expect(array.lines == 1 && array.rejected == 1)
  }
}
