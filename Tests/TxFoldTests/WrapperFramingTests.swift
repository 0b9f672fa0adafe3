import Foundation
import Testing

@testable import TxFold

/// How `{` inputs are framed: JSON lines, recognised wrapper documents, and `--items`.
@Suite("Wrapper documents and --items")
struct WrapperFramingTests {
  static let booked =
    #"{"transactionId":"T1","bookingDate":"2023-11-08","transactionAmount":{"amount":"-10.00","currency":"GBP"},"creditorName":"Cafe"}"#
  static let pending =
    #"{"transactionId":"T1","valueDate":"2023-11-08","transactionAmount":{"amount":"-10.00","currency":"GBP"}}"#
  static let psd2Document = """
    {
      "account": {"iban": "GB00", "transactions": "not these"},
      "transactions": {
        "booked": [
          \(booked)
        ],
        "pending": [\(pending)],
        "information": [{"transactionId": "ignored"}]
      }
    }
    """

  /// The states of the sections, and the groups' counts, of a run.
  static func shape(_ run: FramedRun) -> [String] {
    run.report.sections.map { section in "\(section.state):\(section.groups.map(\.count).reduce(0, +))" }
  }

  @Test("PSD2: booked records are COMPLETED, pending ones PENDING, on every chunk size")
  func psd2() throws {
    let reference = try framedRun(Self.psd2Document)
    #expect(reference.report.stats.schema == "psd2")
    #expect(Self.shape(reference) == ["PENDING:1", "COMPLETED:1"])
    #expect(reference.rejections.isEmpty)
    for size in [1, 2, 9, 64] {
      #expect(try framedRun(Self.psd2Document, chunkSize: size, step: size, threads: 2) == reference, "size \(size)")
    }
  }

  @Test("PSD2: an id in both arrays counts once with --dedupe, in its later (pending) state")
  func psd2Dedupe() throws {
    let run = try framedRun(Self.psd2Document) { $0.dedupe = true }
    #expect(run.report.stats.duplicates == 1)
    #expect(Self.shape(run) == ["PENDING:1"])
  }

  @Test("PAYBACK items and Swile transactions wrappers")
  func paybackAndSwile() throws {
    let payback = """
      {
        "items" : [
          {"partnerDisplayName":"REWE","alias":{"reference":"0981"},"category":1,
           "transactionDetail":{"bookingDate":"2022-07-24T10:59:05+0200","value":{"amount":124,"currency":"PBP"}}}
        ]
      }
      """
    let paybackRun = try framedRun(payback)
    #expect(paybackRun.report.stats.schema == "payback")
    #expect(paybackRun.report.sections.first?.groups.first?.transactions.first?.id == "0981")
    let swile = """
      {"transactions":[
        {"name":"A","type":"gift","date":"2021-03-07T10:04:45.000+01:00","message":null,
         "amount":{"value":-49.9,"currency":{"iso_3":"EUR"}}},
        {"name":"B","type":"payment","date":"2021-03-06T10:04:45.000+01:00","message":"x",
         "amount":{"value":10,"currency":{"iso_3":"EUR"}}}
      ]}
      """
    let swileRun = try framedRun(swile)
    #expect(swileRun.report.stats.schema == "swile")
    #expect(swileRun.report.stats.accepted == 2)
    let ids = swileRun.report.sections.flatMap(\.groups).flatMap(\.transactions).map(\.id)
    #expect(ids.sorted() == ["1", "2"])
  }

  @Test("--items reads the array at a path, or the wrappers inside the object there")
  func itemsPath() throws {
    let bundle = """
      {"Other": {"transactions": {"booked": [\(Self.booked), \(Self.booked)]}},
       "Accounts": {"GetTransactions": \(Self.psd2Document)}}
      """
    let toObject = try framedRun(bundle) { $0.read.itemsPath = ["Accounts", "GetTransactions"] }
    #expect(Self.shape(toObject) == ["PENDING:1", "COMPLETED:1"])
    let toArray = try framedRun(bundle) {
      $0.read.itemsPath = ["Accounts", "GetTransactions", "transactions", "pending"]
    }
    #expect(Self.shape(toArray) == ["PENDING:1"])
    #expect(toArray.report.stats.schema == "psd2")
    let nowhere = try framedRun(bundle) { $0.read.itemsPath = ["Accounts", "Nope"] }
    #expect(nowhere.rejected == ["1:missing-field"])
    #expect(nowhere.rejections.first?.field == "Accounts.Nope")
    // --items applies to every top-level object of JSON lines too.
    let lines = "{\"items\":[\(backbaseRecord())]}\n{\"items\":[\(backbaseRecord(id: "\"2\""))]}\n[1]\n"
    let perLine = try framedRun(lines) { $0.read.itemsPath = ["items"] }
    #expect(perLine.report.stats.accepted == 2)
    #expect(perLine.rejected == ["3:missing-field"])
  }

  @Test(
    "A '{' input is JSON lines unless its first object spans lines and holds a recognised wrapper",
    arguments: [
      // A wrapper on one line is a JSON line (Documentation/Guide.md, "Input"): one record, rejected.
      ("{\"items\":[\(backbaseRecord())]}", InputFramer.Framing.lines),
      // A record spread over lines is no wrapper: JSON lines, every line rejected.
      ("{\n\"id\":\"1\"\n}", .lines),
      // A syntax error before any wrapper key: JSON lines.
      ("{\"id\":\"1\"\n\"items\":[\(backbaseRecord())]}", .lines),
      // Valid JSON over lines whose first line alone is not: still a document.
      ("{\"id\":\"1\",\n\"items\":[\(backbaseRecord())]}", .document),
      ("{\"x\":\"\n\", \"items\":[\n]}", .lines),
      // The wrapper key found, then a line end: a document.
      ("{\"items\":[\(backbaseRecord())\n]}", .document),
      ("{\"meta\":{\"a\":[1,2]},\n\"transactions\":{\"pending\":[]}}", .document),
      // `transactions` that is neither an array nor booked/pending is no wrapper.
      ("{\"transactions\":\n{\"other\":[1]}}", .lines),
      ("[\(backbaseRecord())]", .document),
      ("\(backbaseRecord())\n\(backbaseRecord())", .lines),
      ("garbage\n", .lines),
    ] as [(String, InputFramer.Framing)])
  func framingDecision(text: String, framing: InputFramer.Framing) throws {
    for size in [1, 3, 1 << 20] {
      let framer = InputFramer(
        limits: RecordLimits(maxRecordBytes: 4096, chunkSize: size), itemsPath: nil, allowTrailingCommas: false)
      let chunks = [RecordChunk(capacity: framer.chunkCapacity), RecordChunk(capacity: framer.chunkCapacity)]
      var turn = 0
      let outcome = try framer.frame(
        MemorySource(Array(text.utf8), step: size), fileIndex: 0, firstChunk: chunks[0],
        nextChunk: { () throws(PipelineError) -> RecordChunk in
          turn ^= 1
          return chunks[turn]
        }, emit: { (_: RecordChunk, _: RecordWrapper?) throws(PipelineError) in })
      #expect(outcome.framing == framing, "\(text), size \(size)")
    }
  }

  @Test("A wrapper whose prefix outgrows the record limit before its key is read as JSON lines")
  func probeLimit() throws {
    let padding = String(repeating: "x", count: 300)
    let text = "{\"meta\":\"\(padding)\",\n\"items\":[\(backbaseRecord())\n]}"
    let small = try framedRun(text) { $0.read.limits.maxRecordBytes = 200 }
    #expect(small.report.stats.accepted == 0)
    let large = try framedRun(text) { $0.read.limits.maxRecordBytes = 1000 }
    #expect(large.report.stats.accepted == 1)
  }
}

/// `--schema auto`: each input's schema from its first valid record.
@Suite("Automatic schema")
struct AutoSchemaTests {
  static let ledger = #"[{"id":1,"date":"2018-07-02T16:54:27.000Z","amount":200,"description":"Transaction 2"}]"#
  static let swileLine =
    #"{"name":"A","date":"2021-03-07T10:04:45.000+01:00","amount":{"value":-1,"currency":{"iso_3":"EUR"}}}"#

  @Test("Several inputs may hold different schemas; the summary names each")
  func mixedInputs() throws {
    let run = try framedRun([
      (Array(Self.ledger.utf8), "ledger.json"), (Array(backbaseRecord().utf8), "backbase.jsonl"),
      (Array(Self.ledger.utf8), "again.json"),
    ])
    #expect(run.report.stats.schema == "ledger, backbase")
    #expect(run.report.stats.accepted == 3)
    #expect(run.rejections.isEmpty)
  }

  @Test("Within one input the first valid record decides; later records of another schema are rejected")
  func mixedRecords() throws {
    let text = "{\"id\":\"1\"\n\(Self.swileLine)\n\(backbaseRecord())\n\(Self.swileLine)\n"
    for size in [1, 5, 40, 1 << 20] {
      let run = try framedRun(text, chunkSize: size, step: size)
      #expect(run.report.stats.schema == "swile", "size \(size)")
      #expect(run.rejected == ["1:invalid-json", "3:missing-field"], "size \(size)")
      let ids = run.report.sections.flatMap(\.groups).flatMap(\.transactions).map(\.id)
      // JSON lines are numbered by record, rejected ones included.
      #expect(ids.sorted() == ["2", "4"], "size \(size)")
    }
  }

  @Test("Objects before the first valid record are rejected the same way on every chunk size")
  func undecidedRecords() throws {
    let text = "{\"amount\":\"1\"}\n\n{}\n\(backbaseRecord())\n{\"amount\":\"2\"}\n"
    var reference: FramedRun?
    for size in [1, 3, 17, 1 << 20] {
      let run = try framedRun(text, chunkSize: size, step: size, threads: 2)
      #expect(run.report.stats.schema == "backbase")
      #expect(run.rejected == ["1:missing-field", "3:missing-field", "5:missing-field"])
      #expect(run.rejections.first?.message.hasPrefix("The record lacks fields every schema needs") == true)
      #expect(run.rejections.last?.message.hasPrefix("Missing field 'id'") == true)
      if let reference { #expect(run == reference) }
      reference = run
    }
  }

  @Test("An input where no record decides is reported under its wrapper's schema, else as none detected")
  func undecidedInputs() throws {
    #expect(try framedRun("{\"items\": [\n]}").report.stats.schema == "payback")
    #expect(try framedRun("{\"transactions\": {\n\"pending\": []}}").report.stats.schema == "psd2")
    #expect(try framedRun("[]").report.stats.schema == "")
    #expect(try framedRun("").report.stats.schema == "")
    #expect(try framedRun("[]") { $0.read.schema = .ledger }.report.stats.schema == "ledger")
    let bothEmpty = try framedRun([(Array("{\"items\": [\n]}".utf8), "a"), (Array("[]".utf8), "b")])
    #expect(bothEmpty.report.stats.schema == "payback")
  }

  @Test("An explicit schema is used as it is; --currency fills the ledger's currency")
  func explicitSchema() throws {
    let asBackbase = try framedRun(Self.ledger) { $0.read.schema = .backbase }
    #expect(asBackbase.rejected == ["1:missing-field"])
    let dollars = try framedRun(Self.ledger) { $0.read.defaultCurrency = "USD" }
    #expect(dollars.report.sections.first?.groups.first?.totals.first?.currency == "USD")
  }
}

/// `TransactionReader` (whole transactions, one thread) against `GroupPipeline`.
@Suite("TransactionReader against the pipeline")
struct TransactionReaderPipelineTests {
  @Test(
    "It sees the records the pipeline sees, and grouping what it reads gives the pipeline's report",
    arguments: [
      "corpus.jsonl", "corpus-one-malformed.jsonl", "corpus-array.json.gz", "corpus-array-malformed.json",
      "corpus-array-trailing-commas.json", "corpus-wrapped.json",
    ])
  func agreesWithPipeline(name: String) throws {
    var options = GroupOptions()
    options.memberLimit = .max
    options.read.limits.chunkSize = 64
    var pipelineRejections: [RecordRejection] = []
    let pipeline = GroupPipeline(options: options)
    pipeline.onRejection = { pipelineRejections.append($0) }
    let report = try pipeline.run(paths: [Fixtures.path(name)])
    var transactions: [Transaction] = []
    var positions: [Int] = []
    var rejections: [RecordRejection] = []
    let reader = TransactionReader(options: options.read)
    reader.onRejection = { rejections.append($0) }
    let stats = try reader.read(paths: [Fixtures.path(name)]) { (transaction, position) throws(Never) in
      transactions.append(transaction)
      positions.append(position)
    }
    #expect(stats == report.stats)
    #expect(rejections == pipelineRejections)
    #expect(positions == positions.sorted() && Set(positions).count == positions.count)
    #expect(try TransactionGrouping.group(transactions).sections == report.sections)
  }
  /// A stray `]` inside a wrapper's array of records closed it: the records after it were rejected
  /// as stray text (with no bytes) or as documents without records. A `{` where the wrapper wanted
  /// a key, or a `,` and a `{` after the wrapper closed, shows the `]` was stray: the array goes on.
  @Test(
    "A stray ] inside a wrapper's array does not end it: the records after it are read",
    arguments: [
      ("{\"data\":[\n  @1 ]\n  @2\n]}\n", ["data"], ["2:invalid-json"]),
      ("{\"data\":[\n  @1\n  ],\n  @2\n]}\n", ["data"], ["3:invalid-json"]),
      ("{\"data\":[\n  @1, ],\n  @2\n]}\n", ["data"], ["2:invalid-json"]),
      ("{\"r\":{\"data\":[\n  @1\n  ] @2\n]}}\n", ["r", "data"], ["3:invalid-json"]),
      ("{\"transactions\":[\n  @1],\"x\":1},\n  @2\n]}\n", nil, ["2:invalid-json"]),
    ] as [(String, [String]?, [String])])
  func strayCloserInWrapper(shape: String, items: [String]?, rejected: [String]) throws {
    let text = shape.replacingOccurrences(of: "@1", with: backbaseRecord(id: #""1""#))
      .replacingOccurrences(of: "@2", with: backbaseRecord(id: #""2""#))
    for (size, threads) in [(1 << 20, 1), (1, 1), (7, 2), (64, 2)] {
      let run = try framedRun(text, chunkSize: size, step: size, threads: threads) { $0.read.itemsPath = items }
      let ids = run.report.sections.flatMap { $0.groups.flatMap { $0.transactions.map(\.id) } }.sorted()
      #expect(ids == ["1", "2"], "\(text), size \(size): \(run.rejected)")
      #expect(run.rejected == rejected, "\(text), size \(size)")
      #expect(run.report.stats.lines == 3, "\(text), size \(size)")
    }
  }
}
