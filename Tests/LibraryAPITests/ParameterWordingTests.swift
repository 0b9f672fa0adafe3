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

  @Test("A nightly state written with other settings names the options, not flags or txfold commands")
  func nightlySettings() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wording-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("night.jsonl")
    try Data((Self.record + "\n").utf8).write(to: input)
    var options = GroupOptions()
    options.read.nightly = try NightlyState(previous: nil, for: options)
    let report = try GroupPipeline(options: options).run(paths: [input.path])
    let state = directory.appendingPathComponent("monday.state").path
    try #require(options.read.nightly).write(to: state, stats: report.stats)

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
}
