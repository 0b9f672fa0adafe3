import Foundation
import Testing

/// What `txfold` says about inputs it cannot use: records that came in and
/// none accepted (65, with what they looked like and the likely fix),
/// compressed formats it does not read (65), flags that would accept most
/// records (a hint), and days outside years 1–9999.
@Suite("Input diagnosis")
struct InputDiagnosisTests {
  static let commands = ["group", "list", "summary"]

  /// Writes `files` into a scratch directory and returns it.
  static func directory(_ files: [String: [UInt8]]) throws -> URL {
    let directory = try CLIRunner.temporaryDirectory()
    for (name, bytes) in files {
      try Data(bytes).write(to: directory.appendingPathComponent(name))
    }
    return directory
  }

  static let validRecord =
    #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED"}"#

  /// (file name, contents, words the message must hold).
  static let unusable: [(String, String, [String])] = [
    (
      "dump.csv", "id,amount,currency\n1,2.00,EUR\n2,3.00,EUR\n",
      ["dump.csv", "not JSON", "line 1 starts with 'id,amount"]
    ),
    (
      "package.json", #"{"name":"x","version":"1.0.0","scripts":{"test":"swift test"}}"# + "\n",
      ["package.json", "keys fit no schema", "name, version, scripts", "--schema", "--field"]
    ),
    ("wrapped.json", "{\"data\": [\(validRecord)], \"meta\": 1}\n", ["--items data"]),
    (
      "pretty.json",
      "{\n  \"meta\": {\"count\": 1},\n  \"result\": {\n    \"rows\": [\n      {\"a\": 1}\n    ]\n  }\n}\n",
      ["one JSON document over many lines", "--items result.rows"]
    ),
    (
      // A bank API's answer (GoCardless/Nordigen's mock data): balances come before the transactions.
      "api.json",
      "{\n  \"Mock\": {\n    \"GetBalances\": {\n      \"balances\": [\n        {\"balanceType\": \"closing\"}\n      ]\n    },\n"
        + "    \"GetTransactions\": {\n      \"transactions\": {\n        \"booked\": [\n          {\"a\": 1}\n        ]\n      }\n    }\n  }\n}\n",
      ["one JSON document over many lines", "read it with --items Mock.GetTransactions.transactions.booked."]
    ),
    (
      "commas.jsonl", String(validRecord.dropLast()) + ",}\n" + String(validRecord.dropLast()) + ",}\n",
      ["trailing commas", "--allow-trailing-commas"]
    ),
    ("cr.jsonl", validRecord + "\r" + validRecord + "\r", ["CR-only line ends", "tr '\\r' '\\n'"]),
    ("numbers.jsonl", "1\n2\n", ["not objects"]),
    ("binary.dat", "\u{01}\u{02}\u{03}binary\u{00}\n", ["binary data"]),
    // Last lines that leave a quote or bracket open by chance, without a newline: not an input cut
    // mid-write (74), which they used to be taken for.
    ("binary-cut.dat", "\u{01}\u{02}\u{03}binary \"{", ["binary data"]),
    ("notes.csv", "id,name\n1,\"Caf", ["not JSON", "line 1 starts with 'id,name"]),
  ]

  @Test("Records came in and none was accepted: 65, what they looked like, the likely fix", arguments: unusable)
  func nothingAccepted(name: String, contents: String, words: [String]) throws {
    let directory = try Self.directory([name: Array(contents.utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let rejects = directory.appendingPathComponent("rejects-\(command).jsonl").path
      let output = directory.appendingPathComponent("out-\(command)").path
      let outcome = try CLIRunner.run([command, "--rejects", rejects, "-o", output, name], in: directory)
      #expect(outcome.status == 65, "\(command) \(name): \(outcome.stderr)")
      for word in words { #expect(outcome.stderr.contains(word), "\(command) \(name): \(outcome.stderr)") }
      // The rejects explain the failure; no report is written.
      #expect(FileManager.default.fileExists(atPath: rejects), "\(command) \(name)")
      #expect(!FileManager.default.fileExists(atPath: output), "\(command) \(name)")
    }
  }

  /// `--items` names a path that holds no array: the message names that path, rather than
  /// telling a run that gave `--items` to name the array with `--items`.
  @Test("--items at a path with no array: 65, naming the path", arguments: ["x", "a.b.c", "a"])
  func itemsPathWithoutArray(path: String) throws {
    let document = "{\"a\": {\"b\": [\(Self.validRecord)]}}\n"
    let directory = try Self.directory(["doc.json": Array(document.utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "--items", path, "doc.json"], in: directory)
      #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
      #expect(
        outcome.stderr.contains("No array at '\(path)' in this document (--items)"), "\(command): \(outcome.stderr)")
      #expect(!outcome.stderr.contains("name it with --items"), "\(command): \(outcome.stderr)")
    }
  }

  /// Keys written with escapes (`"d\u0061ta"`) are the keys a JSON reader sees: the advice used to
  /// name them as written (`--items d\u0061ta`), which matches no array when followed.
  @Test("Escaped keys: the advice names them decoded, and following it reads the records")
  func escapedKeysInAdvice() throws {
    let oneLine = "{\"d\\u0061ta\": [\(Self.validRecord)], \"m\\u00e9ta\": 1}\n"
    // As `jq .` writes it: no record on a line of its own.
    let spread = Self.validRecord.replacingOccurrences(of: ",\"", with: ",\n        \"")
    let overLines = "{\n  \"r\\u0065sult\": {\n    \"rows\": [\n      \(spread)\n    ]\n  }\n}\n"
    let directory = try Self.directory(["one-line.json": Array(oneLine.utf8), "pretty.json": Array(overLines.utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let cases = [
      ("one-line.json", ["(line 1 has the keys data, méta)", "read it with --items data."], "data"),
      ("pretty.json", ["read it with --items result.rows."], "result.rows"),
    ]
    for (name, words, items) in cases {
      for command in Self.commands {
        let outcome = try CLIRunner.run([command, name], in: directory)
        #expect(outcome.status == 65, "\(command) \(name): \(outcome.stderr)")
        for word in words { #expect(outcome.stderr.contains(word), "\(command) \(name): \(outcome.stderr)") }
        let followed = try CLIRunner.run([command, "--items", items, name], in: directory)
        #expect(followed.status == 0, "\(command) --items \(items) \(name): \(followed.stderr)")
      }
    }
  }

  /// A bank API's answer is usually minified: its PSD2 report on one line is JSON lines (the first
  /// object ends on its line), and `--items transactions.booked` would drop the pending records.
  @Test("A PSD2 report on one line: 65, advice that keeps its pending records and its account")
  func oneLinePSD2Report() throws {
    let report =
      #"{"account":{"iban":"NL91ABNA0417164300"},"transactions":{"booked":[{"transactionId":"b1","#
      + #""bookingDateTime":"2024-02-01T09:15:00Z","transactionAmount":{"amount":"-4.20","currency":"EUR"}}],"#
      + #""pending":[{"transactionId":"p1","bookingDateTime":"2024-02-02T09:15:00Z","#
      + #""transactionAmount":{"amount":"-1.00","currency":"EUR"}}]}}"#
    let directory = try Self.directory(["report.json": Array((report + "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "report.json"], in: directory)
      #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
      for word in ["PSD2 account report written on one line", "jq . report.json | txfold"] {
        #expect(outcome.stderr.contains(word), "\(command): \(outcome.stderr)")
      }
      #expect(!outcome.stderr.contains("read it with --items transactions.booked."), "\(command): \(outcome.stderr)")
    }
  }

  @Test("Records read with a schema they lack a field of: 65 naming the field, not 'fit no schema'")
  func missingField() throws {
    let withoutState = Self.validRecord.replacingOccurrences(of: #","state":"COMPLETED""#, with: "")
    let directory = try Self.directory(["nostate.jsonl": Array((withoutState + "\n" + withoutState + "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "--schema", "backbase", "nostate.jsonl"], in: directory)
      #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
      for word in ["lack the field 'state'", "--field NAME=PATH", "--schema NAME", "id, transactionAmountCurrency"] {
        #expect(outcome.stderr.contains(word), "\(command): \(outcome.stderr)")
      }
      #expect(!outcome.stderr.contains("fit no schema"), "\(command): \(outcome.stderr)")
    }
  }

  /// (records, words the message must hold), under `--schema auto`.
  static let nearlyFitting: [(String, [String])] = [
    (
      validRecord.replacingOccurrences(of: #","state":"COMPLETED""#, with: ""),
      ["keys fit no schema", "the nearest schema is backbase, whose state ('state') line 1 lacks"]
    ),
    (
      validRecord.replacingOccurrences(of: #","state":"COMPLETED""#, with: "")
        .replacingOccurrences(of: #""creditDebitIndicator":"CRDT","#, with: ""),
      ["whose indicator ('creditDebitIndicator') and state ('state') line 1 lacks"]
    ),
    // An object where the schema reads a value: there, but not as the schema reads it.
    (
      #"{"id":"1","transactionAmountCurrency":"1.00","creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED"}"#,
      ["the nearest schema is backbase, whose amount ('transactionAmountCurrency.amount') and currency"]
    ),
    (
      #"{"id":4734,"when":"2019-05-15","amount":-193.38}"#,
      ["the nearest schema is ledger, whose instant ('date') line 1 lacks"]
    ),
  ]

  @Test("Objects that nearly fit a schema: 65 naming it and the fields they lack", arguments: nearlyFitting)
  func nearestSchema(record: String, words: [String]) throws {
    let directory = try Self.directory(["near.jsonl": Array((record + "\n" + record + "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "near.jsonl"], in: directory)
      #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
      for word in words + ["--schema NAME", "--field NAME=PATH"] {
        #expect(outcome.stderr.contains(word), "\(command): \(outcome.stderr)")
      }
    }
    // An object near no schema is not said to be near one.
    let unrelated = try Self.directory(["package.json": Array(Self.unusable[1].1.utf8)])
    defer { try? FileManager.default.removeItem(at: unrelated) }
    let outcome = try CLIRunner.run(["group", "package.json"], in: unrelated)
    #expect(outcome.status == 65, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("keys fit no schema") && !outcome.stderr.contains("nearest"), "\(outcome.stderr)")
  }

  /// A dump compressed twice (a `.gz` gzipped again by a transfer, gzip inside zstd): TxFold
  /// takes off one layer, and what is inside is compressed data. It used to be "binary data" at
  /// best and, when a quote or bracket was left open by chance, an input cut mid-write (74).
  @Test("A file compressed twice: 65, naming the inner format and the command that takes off a layer")
  func compressedTwice() throws {
    let records = (1...40).map {
      InputDiagnosisTests.validRecord.replacingOccurrences(of: #""id":"1""#, with: #""id":"\#($0)""#)
    }
    let dump = Array((records.joined(separator: "\n") + "\n").utf8)
    let scratch = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let gzip = { (bytes: [UInt8]) in try TruncatedInputCommandTests.gzipped(bytes, in: scratch) }
    let zstd = { (bytes: [UInt8]) in try #require(zstdCompressed(bytes)) }
    let files: [(String, [UInt8], String)] = [
      ("dump.jsonl.gz.gz", try gzip(try gzip(dump)), "gzip -dc dump.jsonl.gz.gz | txfold ..."),
      ("dump.jsonl.gz.zst", try zstd(try gzip(dump)), "gzip-compressed data"),
      ("dump.jsonl.zst.gz", try gzip(try zstd(dump)), "zstd-compressed data"),
      ("one.jsonl.gz.gz", try gzip(try gzip(Array((records[0] + "\n").utf8))), "gzip-compressed data"),
    ]
    let directory = try Self.directory(Dictionary(uniqueKeysWithValues: files.map { ($0.0, $0.1) }))
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, _, words) in files {
      for command in Self.commands {
        let outcome = try CLIRunner.run([command, name], in: directory)
        #expect(outcome.status == 65, "\(command) \(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains("The input is compressed twice"), "\(command) \(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains(words), "\(command) \(name): \(outcome.stderr)")
      }
    }
  }

  @Test("An input without records is an empty report, exit 0, and no schema is claimed")
  func noRecords() throws {
    let directory = try Self.directory(["empty.jsonl": [], "empty.json": Array("[]\n".utf8), "blank.jsonl": [10, 10]])
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["empty.jsonl", "empty.json", "blank.jsonl"] {
      for command in Self.commands {
        let outcome = try CLIRunner.run([command, name], in: directory)
        #expect(outcome.status == 0, "\(command) \(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains("no schema detected"), "\(command) \(name): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("schema backbase"), "\(command) \(name)")
      }
    }
    let group = try CLIRunner.run(["group", "empty.jsonl"], in: directory)
    #expect(group.text.contains("No transactions."))
  }

  @Test("--emit partial leaves the rule to merge: a shard of bad records is 0, their merge 65")
  func partialsAndMerge() throws {
    let directory = try Self.directory([
      "bad.jsonl": Array("id,amount\n1,2\n".utf8), "good.jsonl": Array((Self.validRecord + "\n").utf8),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let bad = try CLIRunner.run(["group", "--emit", "partial", "-o", "bad.partial", "bad.jsonl"], in: directory)
    #expect(bad.status == 0, "\(bad.stderr)")
    let good = try CLIRunner.run(["group", "--emit", "partial", "-o", "good.partial", "good.jsonl"], in: directory)
    #expect(good.status == 0, "\(good.stderr)")
    let onlyBad = try CLIRunner.run(["merge", "bad.partial"], in: directory)
    #expect(onlyBad.status == 65, "\(onlyBad.stderr)")
    #expect(onlyBad.stderr.contains("None of the 2 records"), "\(onlyBad.stderr)")
    let mixed = try CLIRunner.run(["merge", "bad.partial", "good.partial"], in: directory)
    #expect(mixed.status == 0, "\(mixed.stderr)")
  }

  /// (name, first bytes, format, command).
  static let compressed: [(String, [UInt8], String, String)] = [
    ("dump.bz2", Array("BZh91AY&SY".utf8) + [0, 1, 2], "bzip2", "bzip2 -dc dump.bz2 | txfold"),
    ("dump.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04], "xz", "xz -dc dump.xz | txfold"),
    ("dump.zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "zip", "unzip -p dump.zip | txfold"),
    ("dump.lz4", [0x04, 0x22, 0x4D, 0x18, 0x64, 0x40], "lz4", "lz4 -dc dump.lz4 | txfold"),
    ("my dump.jsonl", Array("BZh91AY".utf8), "bzip2", "bzip2 -dc 'my dump.jsonl' | txfold"),
  ]

  @Test(
    "Compressed formats are recognised by their magic bytes and refused with the command to decompress (65)",
    arguments: compressed)
  func compressedInputs(name: String, bytes: [UInt8], format: String, command: String) throws {
    let directory = try Self.directory([name: bytes, "good.jsonl": Array((Self.validRecord + "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for subcommand in Self.commands {
      // Refused before anything is read, also when it is not the first input.
      let outcome = try CLIRunner.run([subcommand, "good.jsonl", name], in: directory)
      #expect(outcome.status == 65, "\(subcommand) \(name): \(outcome.stderr)")
      #expect(outcome.stderr.contains("'\(name)' is compressed with \(format)"), "\(outcome.stderr)")
      #expect(outcome.stderr.contains(command), "\(outcome.stderr)")
      #expect(outcome.stdout.isEmpty)
      // On standard input too (no file name to show).
      let piped = try CLIRunner.run([subcommand], stdin: bytes)
      #expect(piped.status == 65, "\(subcommand) stdin: \(piped.stderr)")
      #expect(piped.stderr.contains("\(format) -dc | txfold") || piped.stderr.contains("unzip -p | txfold"))
    }
  }

  @Test(
    "A state or partial file of txfold's own given as an input is refused before reading (65), saying where it goes")
  func ownFilesAsInputs() throws {
    let accounted = #"{"arrangementId":"A1","# + Self.validRecord.dropFirst()
    let directory = try Self.directory([
      "good.jsonl": Array((Self.validRecord + "\n").utf8), "accounts.jsonl": Array((accounted + "\n").utf8),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let made = [
      ["group", "--state-out", "night1.state", "good.jsonl"],
      ["list", "--per-account", "--state-out", "accounts.state", "accounts.jsonl"],
      ["group", "--emit", "partial", "-o", "shard.partial", "good.jsonl"],
      ["group", "--per-account", "--emit", "partial", "-o", "accounts.partial", "accounts.jsonl"],
    ]
    for arguments in made {
      let outcome = try CLIRunner.run(arguments + ["-q"], in: directory)
      #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    }
    let expected = [
      ("night1.state", "'night1.state' is a txfold state file, not transactions: give it with --state-in"),
      ("accounts.state", "'accounts.state' is a txfold state file, not transactions: give it with --state-in"),
      (
        "shard.partial",
        "'shard.partial' is a txfold partial state, not transactions: merge it with the other partials (txfold merge)"
      ),
      ("accounts.partial", "'accounts.partial' is a txfold partial state"),
    ]
    for (name, message) in expected {
      for subcommand in Self.commands {
        // Forgetting --state-in before last night's state read it as records: every line rejected,
        // and beside tonight's export a run that succeeded and wrote a state without the history.
        let outcome = try CLIRunner.run(
          [subcommand, "good.jsonl", name, "--state-out", "night2.state", "--stats", "run.json"], in: directory)
        #expect(outcome.status == 65, "\(subcommand) \(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(subcommand) \(name): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("lines:"), "refused before reading: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("night2.state").path))
        let stats = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(stats.contains(#""exitStatus":65"#), "\(stats)")
        // On standard input too.
        let bytes = try Array(Data(contentsOf: directory.appendingPathComponent(name)))
        let piped = try CLIRunner.run([subcommand, "-q"], stdin: bytes)
        #expect(piped.status == 65, "\(subcommand) stdin \(name): \(piped.stderr)")
        #expect(piped.stderr.contains("'-' is a txfold"), "\(piped.stderr)")
      }
    }
    // Where they go, they are read as before.
    let nightly = try CLIRunner.run(
      ["group", "--state-in", "night1.state", "--state-out", "n2.state", "good.jsonl"], in: directory)
    #expect(nightly.status == 0, "\(nightly.stderr)")
    let merged = try CLIRunner.run(["merge", "shard.partial"], in: directory)
    #expect(merged.status == 0, "\(merged.stderr)")
    let accounts = try CLIRunner.run(["merge", "--per-account", "accounts.partial"], in: directory)
    #expect(accounts.status == 0, "\(accounts.stderr)")
  }

  @Test("A large share rejected for a reason a flag fixes: the flag after the run summary, exit unchanged")
  func hints() throws {
    let comma = String(Self.validRecord.dropLast()) + ",}"
    let big = #"{"id":"9","description":""# + String(repeating: "x", count: 300) + #""}"#
    let directory = try Self.directory([
      "commas.jsonl": Array([Self.validRecord, comma, comma].joined(separator: "\n").utf8),
      "big.jsonl": Array([Self.validRecord, big, big].joined(separator: "\n").utf8),
      "few.jsonl": Array([Self.validRecord, Self.validRecord, Self.validRecord, comma].joined(separator: "\n").utf8),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let commas = try CLIRunner.run([command, "commas.jsonl"], in: directory)
      #expect(commas.status == 0)
      #expect(commas.stderr.contains("hint: 2 of 3 records were rejected for a trailing comma"), "\(commas.stderr)")
      #expect(commas.stderr.contains("--allow-trailing-commas"))
      let big = try CLIRunner.run([command, "--max-record-bytes", "256", "big.jsonl"], in: directory)
      #expect(big.status == 0)
      #expect(
        big.stderr.contains("hint: 2 of 3 records are larger than --max-record-bytes (256 bytes)"), "\(big.stderr)")
      let few = try CLIRunner.run([command, "few.jsonl"], in: directory)
      #expect(few.status == 0)
      #expect(!few.stderr.contains("hint:"), "\(few.stderr)")
    }
  }

  /// A hand-formatted document with a wrapper TxFold does not recognise, one record per line, is
  /// read as JSON lines (Guide, "Syntax errors and cut-off files"): its record lines were accepted, its other lines rejected, and
  /// nothing named `--items` (exit 0).
  @Test("A document over lines read as JSON lines, its records accepted: a hint names --items, exit unchanged")
  func documentOverLinesHint() throws {
    let document = "{\n \"result\": {\n  \"rows\": [\n   \(Self.validRecord)\n  ]\n }\n}\n"
    let directory = try Self.directory([
      "rows.json": Array(document.utf8),
      "broken.jsonl": Array("{\n\(Self.validRecord)\n{\"id\":\n".utf8),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let rows = try CLIRunner.run([command, "rows.json"], in: directory)
      #expect(rows.status == 0, "\(command): \(rows.stderr)")
      #expect(
        rows.stderr.contains("hint: Lines 1–7 of 'rows.json' look like one JSON document over many lines"),
        "\(command): \(rows.stderr)")
      #expect(rows.stderr.contains("read it with --items result.rows."), "\(command): \(rows.stderr)")
      // Following the hint reads the document whole.
      let items = try CLIRunner.run([command, "--items", "result.rows", "rows.json"], in: directory)
      #expect(items.status == 0 && !items.stderr.contains("hint:"), "\(command): \(items.stderr)")
      // Lines that open no array say nothing about --items.
      let broken = try CLIRunner.run([command, "broken.jsonl"], in: directory)
      #expect(!broken.stderr.contains("hint:"), "\(command): \(broken.stderr)")
    }
  }

  static func backbase(id: String, time: String) -> String {
    #"{"id":"\#(id)","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"\#(time)","state":"COMPLETED"}"#
  }

  /// (zone, the timestamp it moves out of years 1–9999).
  static let boundaries: [(String, String)] = [
    ("America/New_York", "0001-01-01T00:00:00+00:00"),
    ("Asia/Tokyo", "9999-12-31T23:00:00Z"),
    ("Pacific/Kiritimati", "9999-12-31T10:00:00Z"),
  ]

  @Test(
    "A timestamp --timezone moves outside years 1-9999 is rejected, in every command and format",
    arguments: boundaries)
  func yearBoundaries(zone: String, time: String) throws {
    let records = [
      Self.backbase(id: "in", time: "5000-06-01T12:00:00Z"), Self.backbase(id: "out", time: time),
      Self.backbase(id: "zero", time: "0000-06-01T12:00:00Z"),
    ]
    let directory = try Self.directory(["edge.jsonl": Array(records.joined(separator: "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      for format in ["text", "json", "jsonl", "csv"] {
        let rejects = directory.appendingPathComponent("r-\(command)-\(format).jsonl")
        let outcome = try CLIRunner.run(
          [command, "--timezone", zone, "--format", format, "--rejects", rejects.path, "edge.jsonl"], in: directory)
        #expect(outcome.status == 0, "\(command) \(format): \(outcome.stderr)")
        #expect(outcome.stderr.contains("3 lines: 1 accepted, 2 rejected (invalid-timestamp 2)"), "\(outcome.stderr)")
        #expect(!outcome.text.contains("0000-"), "\(command) \(format): \(outcome.text)")
        #expect(!outcome.text.contains("10000-"), "\(command) \(format): \(outcome.text)")
        let rejected = try String(contentsOf: rejects, encoding: .utf8)
        #expect(rejected.contains(#""reason":"invalid-timestamp""#))
        #expect(rejected.contains(time))
      }
    }
  }

  static func record(id: String = #""1""#, money: String, extra: String = "") -> String {
    #"{"id":\#(id),"transactionAmountCurrency":\#(money),"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED"\#(extra)}"#
  }

  /// (record, the total it gives, or the reason it is rejected for).
  static let records: [(String, String)] = [
    (
      record(money: #"{"amount":100000000000000000000000000000000000000e-1,"currencyCode":"EUR"}"#),
      "10000000000000000000000000000000000000"
    ),
    (record(money: #"{"amount":0e-100,"currencyCode":"EUR"}"#), "0"),
    (record(money: #"{"amount":1e-19,"currencyCode":"EUR"}"#), "amount-out-of-range"),
    (record(id: #""""#, money: #"{"amount":"1.00","currencyCode":"EUR"}"#), "invalid-field"),
    (
      record(
        money: #"{"amount":"1.00","currencyCode":"EUR"}"#, extra: #","transactionAmountCurrency":{"amount":"2.00"}"#),
      "missing-field"
    ),
    (
      record(
        money: #"{"currencyCode":"USD"}"#,
        extra: #","transactionAmountCurrency":{"amount":"2.00","currencyCode":"EUR"}"#),
      "2.00"
    ),
  ]

  @Test("Amounts by value, empty ids, repeated keys: accepted or rejected alike in every command", arguments: records)
  func recordRules(record: String, expected: String) throws {
    let other = Self.record(id: #""other""#, money: #"{"amount":"5","currencyCode":"XXX"}"#)
    let directory = try Self.directory(["one.jsonl": Array((record + "\n" + other + "\n").utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "--format", "csv", "one.jsonl"], in: directory)
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
      if expected.first?.isNumber == true {
        #expect(outcome.stderr.contains("2 lines: 2 accepted"), "\(command): \(outcome.stderr)")
        #expect(
          outcome.text.contains(",\(expected),") || outcome.text.contains(",\(expected)\n"),
          "\(command): \(outcome.text)")
      } else {
        #expect(outcome.stderr.contains("1 rejected (\(expected) 1)"), "\(command): \(outcome.stderr)")
      }
    }
  }

  @Test("A wrapper key given twice: the later array's records are rejected, not added")
  func itemsTwice() throws {
    func item(_ reference: String) -> String {
      #"{"alias":{"reference":"\#(reference)"},"partnerDisplayName":"X","transactionDetail":{"bookingDate":"2022-07-10T10:00:00Z","value":{"amount":1,"currency":"PBP"}}}"#
    }
    let document = "{\"items\": [\(item("a"))],\n \"items\": [\(item("b"))]}\n"
    let directory = try Self.directory(["twice.json": Array(document.utf8)])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in Self.commands {
      let outcome = try CLIRunner.run([command, "twice.json"], in: directory)
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
      #expect(
        outcome.stderr.contains("2 lines: 1 accepted, 1 rejected (invalid-json 1)"), "\(command): \(outcome.stderr)")
    }
  }
}
