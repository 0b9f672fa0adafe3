import Foundation
import Testing
import TxFold

@Suite("Input from memory equals input from a file")
struct InMemoryInputTests {
  static let files = [
    "corpus.jsonl", "corpus.jsonl.gz", "corpus-array.json", "corpus-array.json.gz", "corpus-wrapped.json",
    "corpus-multimember.jsonl.gz", "corpus-one-malformed.jsonl", "corpus-bom.jsonl", "corpus-crlf.jsonl",
  ]

  static func contents(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: Fixture.path(name)))
  }

  @Test("Data, [UInt8] and a file descriptor give the path's report, gzip detected from the bytes", arguments: files)
  func group(name: String) throws {
    let path = Fixture.path(name)
    let data = try Self.contents(name)
    let pipeline = GroupPipeline(options: GroupOptions())
    let fromFile = try pipeline.run(paths: [path])
    let fromData = try pipeline.run(sources: [InputOpener.open(data: data, name: path)])
    let fromBytes = try pipeline.run(sources: [InputOpener.open(bytes: Array(data), name: path)])
    // A descriptor the app opened itself (a fixture, never a device): read, and left open.
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let fromDescriptor = try pipeline.run(sources: [
      InputOpener.open(fileDescriptor: handle.fileDescriptor, name: path)
    ])
    #expect(try handle.offset() == UInt64(data.count), "the descriptor is still open, read to its end")
    #expect(fromData.sections == fromFile.sections)
    #expect(fromBytes.sections == fromFile.sections)
    #expect(fromDescriptor.sections == fromFile.sections)
    #expect(fromDescriptor.stats.bytesRead == fromFile.stats.bytesRead)
    #expect(
      ReportRenderer.renderToBytes(fromData, format: .json) == ReportRenderer.renderToBytes(fromFile, format: .json))
    #expect(fromData.stats.lines == fromFile.stats.lines && fromData.stats.rejected == fromFile.stats.rejected)
    #expect(fromData.stats.bytesRead == fromFile.stats.bytesRead)
    #expect(fromData.stats.bytesDecoded == fromFile.stats.bytesDecoded)
  }

  @Test("Rejections from memory name the input and the line, as from a file")
  func rejections() throws {
    let data = try Self.contents("corpus-one-malformed.jsonl")
    let pipeline = GroupPipeline(options: GroupOptions())
    var rejected: [RecordRejection] = []
    pipeline.onRejection = { rejected.append($0) }
    _ = try pipeline.run(sources: [InputOpener.open(data: data, name: "download")])
    #expect(rejected.map(\.line) == [5])
    #expect(rejected.map(\.file) == ["download"])
  }

  @Test("List and summary read in-memory sources too", arguments: ["corpus.jsonl", "corpus-array.json.gz"])
  func listAndSummary(name: String) throws {
    let data = try Self.contents(name)
    let listed = try ListPipeline(options: ListOptions()).run(sources: [InputOpener.open(data: data, name: name)])
      .remainingTransactions()
    let listedFile = try ListPipeline(options: ListOptions()).run(paths: [Fixture.path(name)]).remainingTransactions()
    #expect(listed == listedFile && !listed.isEmpty)
    let summary = try SummaryPipeline(options: SummaryOptions()).run(sources: [
      InputOpener.open(bytes: Array(data), name: name)
    ])
    let summaryFile = try SummaryPipeline(options: SummaryOptions()).run(paths: [Fixture.path(name)])
    #expect(summary.entries == summaryFile.entries)
  }

  @Test("A damaged gzip body fails as a damaged gzip file does")
  func corruptGzip() throws {
    let data = try Self.contents("corpus-truncated.jsonl.gz")
    #expect {
      try GroupPipeline(options: GroupOptions()).run(sources: [InputOpener.open(data: data, name: "body")])
    } throws: { error in
      guard let error = error as? PipelineError, case .input(.gzipTruncated(let path)) = error else { return false }
      return path == "body"
    }
  }

  @Test("The list cursor is a Sequence of results")
  func cursorSequence() throws {
    var options = ListOptions()
    options.page = PageRequest(offset: 1, limit: 3)
    let cursor = try ListPipeline(options: options).run(paths: [Fixture.path("corpus.jsonl")])
    let page = try cursor.map { try $0.get() }
    let all = try ListPipeline(options: ListOptions()).run(paths: [Fixture.path("corpus.jsonl")])
      .remainingTransactions()
    #expect(page == Array(all[1..<4]))
    #expect(page.map(\.id) == Array(all[1..<4]).map(\.id))
  }
}

@Suite("Errors speak the library's language")
struct LibraryErrorTests {
  @Test("maxRejects, not --max-rejects, in a LocalizedError")
  func tooManyRejects() throws {
    var options = GroupOptions()
    options.read.maxRejects = 0
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixture.path("corpus-one-malformed.jsonl")))
    // Opened outside the `do`, so the run's typed `PipelineError` is what the `catch` gets.
    let upload = try InputOpener.open(data: data, name: "upload")
    do {
      _ = try GroupPipeline(options: options).run(sources: [upload])
      Issue.record("no error")
    } catch {
      let message = (error as any Error).localizedDescription
      #expect(message.contains("maxRejects"), "\(message)")
      #expect(message.contains("(upload, line 5)"), "\(message)")
      #expect(!message.contains("--"), "\(message)")
      #expect(message == error.description)
    }
  }

  @Test("Input errors read as sentences naming the input")
  func missingFile() {
    do {
      _ = try GroupPipeline(options: GroupOptions()).run(paths: [Fixture.path("no-such-file.jsonl")])
      Issue.record("no error")
    } catch {
      let message = (error as any Error).localizedDescription
      #expect(message.hasPrefix("Cannot open '"), "\(message)")
      #expect(message.contains("no-such-file.jsonl"))
    }
  }
}

extension LibraryErrorTests {
  @Test("Grouping an app's own transactions reports an overflow as a sentence")
  func groupingOverflow() throws {
    let stamp = try JSONDecoder().decode([Timestamp].self, from: Data(#"["2019-05-17T10:00:00Z"]"#.utf8))[0]
    let huge = ExactDecimal(significandHigh: .max, significandLow: .max, scale: 0)  // 2^127 - 1
    let transactions = (1...2).map {
      Transaction(
        id: "\($0)", instant: stamp, amount: huge, currency: "EUR", creditDebitIndicator: .credit, state: "COMPLETED")
    }
    do {
      _ = try TransactionGrouping.group(transactions)
      Issue.record("no error")
    } catch {
      #expect(
        (error as any Error).localizedDescription
          == "The EUR total of the COMPLETED group of 2019-05-17 overflows 128 bits.")
    }
  }
}

extension LibraryErrorTests {
  static func expectNoFlags(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(text.range(of: #"--[a-z]"#, options: .regularExpression) == nil, "\(text)", sourceLocation: sourceLocation)
  }

  @Test(
    "A refused time-zone name is a LocalizedError sentence", arguments: ["GMT+2", "UTC-05:00", "Europe//Amsterdam"])
  func zoneNames(name: String) {
    do throws(ZoneError) {
      _ = try ZoneResolver.named(name)
      Issue.record("no error")
    } catch {
      let message = (error as any Error).localizedDescription
      #expect(message.hasPrefix("'\(name)' is "), "\(message)")
      #expect(message.lowercased() == error.description.lowercased())
      Self.expectNoFlags(message)
    }
  }

  @Test(
    "A run's error is a LocalizedError whose message is what its case carries: nothingAccepted's and tooManyRejected's")
  func payloads() throws {
    var options = GroupOptions()
    options.read.requireAcceptedRecords = true
    // Each source opened outside its `do`, so the run's typed `PipelineError` is what the `catch` gets.
    let notJSON = try InputOpener.open(data: Data("not json\nnor this\n".utf8), name: "upload")
    do {
      _ = try GroupPipeline(options: options).run(sources: [notJSON])
      Issue.record("no error")
    } catch {
      guard case .nothingAccepted(let diagnosis) = error else {
        Issue.record("expected nothingAccepted, got \(error)")
        return
      }
      #expect((error as any Error).localizedDescription == diagnosis)
      Self.expectNoFlags(diagnosis)
    }
    options = GroupOptions()
    options.read.maxRejectRate = ExactDecimal("0.01")
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixture.path("corpus-one-malformed.jsonl")))
    let malformed = try InputOpener.open(data: data, name: "upload")
    do {
      _ = try GroupPipeline(options: options).run(sources: [malformed])
      Issue.record("no error")
    } catch {
      guard case .tooManyRejected(let rejected, let lines, _) = error else {
        Issue.record("expected tooManyRejected, got \(error)")
        return
      }
      let message = (error as any Error).localizedDescription
      #expect(message == error.description && message.hasPrefix("\(rejected) of \(lines) lines rejected"))
      #expect(message.contains("more than maxRejectRate 0.01 allows."))
      Self.expectNoFlags(message)
    }
  }

  /// An app's own output error, with its own message.
  struct DiskFull: LocalizedError {
    var errorDescription: String? { "The disk is full." }
  }

  @Test("Writing a per-account partial that fails in the app's flush reports the app's own message")
  func accountPartialOutput() throws {
    var options = GroupOptions()
    options.read.accounts = .field
    let dump = Array(
      #"{"arrangementId":"acc-1","id":"1","creationTime":"2024-05-17T10:00:00","state":"COMPLETED","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"}}"#
        .utf8)
    let cursor = try GroupPipeline(options: options).runPerAccountPartial(sources: [
      InputOpener.open(bytes: dump, name: "dump.jsonl")
    ])
    do {
      try cursor.writePartial { (_: inout [UInt8]) throws(DiskFull) in throw DiskFull() }
      Issue.record("no error")
    } catch {
      #expect((error as any Error).localizedDescription == "The disk is full.")
    }
  }
}
