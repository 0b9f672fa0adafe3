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
}
