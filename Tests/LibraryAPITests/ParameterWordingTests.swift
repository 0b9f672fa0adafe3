import Foundation
import Testing
import TxFold

/// The library's messages name an option by its parameter (`allowTrailingCommas`, `itemsPath`,
/// `maxRecordBytes`), never by a `txfold` flag: an app has no command line. (The CLI rewords them;
/// the end-to-end goldens check its wording.)
@Suite("Library messages name parameters, not flags")
struct ParameterWordingTests {
  static let record =
    #"{"id":"a1","transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"},"#
    + #""creditDebitIndicator":"DBIT","creationTime":"2019-05-31T10:00:00","state":"COMPLETED"}"#

  /// Runs a group over `text`, every record required; the error (if any) and the rejections.
  static func run(
    _ text: String, configure: (inout GroupOptions) -> Void = { _ in }
  ) -> (report: GroupReport?, error: PipelineError?, rejections: [RecordRejection]) {
    var options = GroupOptions()
    options.read.requireAcceptedRecords = true
    configure(&options)
    let pipeline = GroupPipeline(options: options)
    var rejections: [RecordRejection] = []
    pipeline.onRejection = { rejections.append($0) }
    do {
      let report = try pipeline.run(sources: [InputOpener.open(data: Data(text.utf8), name: "download")])
      return (report, nil, rejections)
    } catch let error as PipelineError {
      return (nil, error, rejections)
    } catch {
      Issue.record("the text did not open as an input: \(error)")
      return (nil, nil, rejections)
    }
  }

  static func expectNoFlags(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(text.range(of: #"--[a-z]"#, options: .regularExpression) == nil, "\(text)", sourceLocation: sourceLocation)
  }

  @Test("Trailing commas: the rejection, the hint and the diagnosis name allowTrailingCommas")
  func trailingCommas() throws {
    let comma = String(Self.record.dropLast()) + ",}"
    let allRejected = Self.run([comma, comma].joined(separator: "\n"))
    guard case .nothingAccepted(let failure) = allRejected.error else {
      Issue.record("expected nothingAccepted, got \(String(describing: allRejected.error))")
      return
    }
    #expect(failure.description.contains("allowTrailingCommas accepts them."))
    Self.expectNoFlags(failure.description)
    let detail = try #require(allRejected.rejections.first?.detail)
    #expect(detail.contains("(allowTrailingCommas accepts it)"))
    Self.expectNoFlags(detail)

    let mostlyRejected = Self.run([Self.record, comma, comma].joined(separator: "\n"))
    let hints = try #require(mostlyRejected.report?.stats.hints)
    #expect(hints.count == 1 && hints[0].contains("allowTrailingCommas accepts them."))
    hints.forEach { Self.expectNoFlags($0) }
  }

  @Test("Records too large: maxRecordBytes")
  func tooLarge() {
    let outcome = Self.run([Self.record, Self.record].joined(separator: "\n")) { $0.read.maxRecordBytes = 40 }
    guard case .nothingAccepted(let failure) = outcome.error else {
      Issue.record("expected nothingAccepted, got \(String(describing: outcome.error))")
      return
    }
    #expect(failure.description.contains("larger than maxRecordBytes"))
    Self.expectNoFlags(failure.description)
  }

  @Test("Objects of no schema, no array at the path: schema, itemsPath")
  func otherShapes() {
    let otherKeys = Self.run(#"{"foo":1,"rows":[{"a":1}]}"#)
    let noArray = Self.run(#"{"data":{"x":1}}"#) { $0.read.itemsPath = ["rows"] }
    var texts: [String] = []
    for outcome in [otherKeys, noArray] {
      guard case .nothingAccepted(let failure) = outcome.error else {
        Issue.record("expected nothingAccepted, got \(String(describing: outcome.error))")
        continue
      }
      texts.append(failure.description)
      texts += outcome.rejections.map(\.detail)
    }
    #expect(texts.contains { $0.contains("choose one with schema, or map the fields with RecordSchema.custom.") })
    #expect(texts.contains { $0.contains("read it with itemsPath rows") })
    #expect(texts.contains { $0.contains("itemsPath") })
    texts.forEach { Self.expectNoFlags($0) }
  }

  /// A new `directory` (the caller removes it) holding a `group` run's first-night state of one record.
  static func firstNightState(in directory: URL) throws -> String {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let input = directory.appendingPathComponent("night.jsonl")
    try Data((record + "\n").utf8).write(to: input)
    var options = GroupOptions()
    options.read.nightly = try NightlyState(previous: nil, for: options)
    let report = try GroupPipeline(options: options).run(paths: [input.path])
    let state = directory.appendingPathComponent("monday.state").path
    try #require(options.read.nightly).write(to: state, stats: report.stats)
    return state
  }

  @Test("A nightly state written with other settings names the options, not flags or txfold commands")
  func nightlySettings() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wording-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = try Self.firstNightState(in: directory)

    var fewerMembers = GroupOptions()
    fewerMembers.memberLimit = 5
    var otherZone = GroupOptions()
    otherZone.read.zone = try ZoneResolver.named("UTC")
    var texts: [String] = []
    for attempt in [
      { _ = try NightlyState(previous: state, for: fewerMembers) },
      { _ = try NightlyState(previous: state, for: otherZone) },
      { _ = try NightlyState(previous: state, for: ListOptions()) },
    ] {
      do {
        try attempt()
        Issue.record("the state was taken under other settings")
      } catch {
        texts.append(error.localizedDescription)
      }
    }
    #expect(texts.count == 3)
    #expect(texts.first?.contains("written with memberLimit 20; this run has memberLimit 5") == true, "\(texts)")
    #expect(texts.dropFirst().first?.contains("this run has zone UTC") == true, "\(texts)")
    #expect(texts.last?.contains("written by a group run; this run is a list run") == true, "\(texts)")
    for text in texts {
      Self.expectNoFlags(text)
      #expect(!text.contains("txfold"), "\(text)")
    }
  }

  /// `text` names no command line: no flag and no `txfold` (the program; `TxFold`, the library, may appear).
  static func expectLibraryWording(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectNoFlags(text, sourceLocation: sourceLocation)
    #expect(!text.contains("txfold"), "\(text)", sourceLocation: sourceLocation)
  }

  /// A gzip stream of `payload` in one stored (uncompressed) block.
  static func gzipStored(_ payload: [UInt8]) -> [UInt8] {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in payload {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let length = UInt16(payload.count)
    return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
      + [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + payload
      + littleEndian(crc ^ 0xFFFF_FFFF) + littleEndian(UInt32(payload.count))
  }

  /// Every sentence a group over `bytes` gives: the run's failure and each rejection's detail.
  static func sentences(_ bytes: [UInt8]) -> [String] {
    var options = GroupOptions()
    options.read.requireAcceptedRecords = true
    let pipeline = GroupPipeline(options: options)
    var texts: [String] = []
    pipeline.onRejection = { texts.append($0.detail) }
    do {
      _ = try pipeline.run(sources: [InputOpener.open(bytes: bytes, name: "download")])
    } catch {
      texts.append(error.localizedDescription)
    }
    return texts
  }

  @Test("Inputs the library cannot read: the advice names no txfold command", arguments: 0..<7)
  func inputAdvice(index: Int) throws {
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in (Self.record + "\n").utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let xz: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]
    let psd2 =
      #"{"account":{"iban":"NL91ABNA0417164300"},"transactions":{"booked":[{"transactionId":"b1","#
      + #""bookingDateTime":"2024-02-01T09:15:00Z","transactionAmount":{"amount":"-4.20","currency":"EUR"}}],"#
      + #""pending":[{"transactionId":"p1","bookingDateTime":"2024-02-02T09:15:00Z","#
      + #""transactionAmount":{"amount":"-1.00","currency":"EUR"}}]}}"# + "\n"
    let cases: [(input: [UInt8], says: String)] = [
      (
        Array((Self.record + "\r" + Self.record + "\r").utf8), "so it reads as one record; convert each CR to LF first."
      ),
      (utf16, "The input is UTF-16 text; TxFold reads UTF-8. Convert it to UTF-8 first."),
      ([0x00, 0x01, 0x02, 0xFF, 0x00, 0x10, 0x0A], "TxFold reads JSON lines, a JSON array of records"),
      (xz, "'download' is compressed with xz, which TxFold does not read; decompress it first: xz -dc download, then"),
      (Self.gzipStored(xz), "Take off the outer layer first: gzip -dc download | xz -dc (zstd -dc for a zstd file)."),
      (Array(psd2.utf8), "spread over lines (jq . download) it is read whole"),
      (
        Array("{\"items\": [\(Self.record)],\n \"items\": [\(Self.record)]}\n".utf8),
        "TxFold reads the first array and rejects the records of a later one"
      ),
    ]
    let texts = Self.sentences(cases[index].input)
    #expect(texts.contains { $0.contains(cases[index].says) }, "\(texts)")
    texts.forEach { Self.expectLibraryWording($0) }
  }

  @Test("A state or partial of another version, or not a state: no txfold in the message")
  func versions() throws {
    let partial = PartialStateError.unsupportedVersion(file: "part-1", line: 1, version: "9")
    #expect(partial.description.contains("this version of TxFold reads version"))
    Self.expectLibraryWording(partial.description)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wording-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = try Self.firstNightState(in: directory)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
    bytes[8] = 9
    let later = directory.appendingPathComponent("later.state")
    try Data(bytes).write(to: later)
    let notAState = directory.appendingPathComponent("records.state")
    try Data((#"{"id":"1"}"# + String(repeating: " ", count: 64)).utf8).write(to: notAState)
    for (path, says) in [
      (later.path, "written by a TxFold whose state version is 9; this version of TxFold reads version 1"),
      (notAState.path, "it is not a TxFold state file"),
    ] {
      do {
        _ = try NightlyState(previous: path, for: GroupOptions())
        Issue.record("\(path) was taken as a state")
      } catch {
        #expect(error.localizedDescription.contains(says), "\(error.localizedDescription)")
        Self.expectLibraryWording(error.localizedDescription)
      }
    }
  }
}
