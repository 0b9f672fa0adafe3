import Foundation
import Testing
import TxFold

/// Single records and timestamps, decoded as an app would: `RecordDecoder.transaction(_:position:file:)`
/// and `Timestamp(_:)`.
@Suite("Decoding single records")
struct DecoderAPITests {
  static let record =
    #"{"id":"t1","transactionAmountCurrency":{"amount":"19.99","currencyCode":"eur"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-15T14:28:01Z","state":"COMPLETED"}"#

  static func decode(_ text: String, schema: RecordSchema = .backbase, position: Int = 1)
    -> Result<Transaction, RecordRejection>
  {
    let decoder = RecordDecoder(schema: schema)
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { decoder.transaction($0, position: position, file: "upload") }
  }

  @Test("A record decodes into the transaction a run over a file lists")
  func accepted() throws {
    let transaction = try Self.decode(Self.record).get()
    #expect(transaction.id == "t1")
    #expect(transaction.amount == ExactDecimal("-19.99"))
    #expect(transaction.currency == "EUR")
    #expect(transaction.instant == Timestamp("2019-05-15T14:28:01Z"))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-api-\(UUID()).jsonl")
    try Data((Self.record + "\n").utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let listed = try ListPipeline(options: ListOptions()).run(paths: [file.path]).remainingTransactions()
    #expect(listed == [transaction])
  }

  @Test("A rejected record says why, naming the input and the position")
  func rejected() {
    guard case .failure(let rejection) = Self.decode(#"{"id":"t1"}"#, position: 7) else {
      Issue.record("accepted")
      return
    }
    #expect(rejection.reason == .missingField)
    #expect(rejection.file == "upload" && rejection.line == 7)
    #expect(rejection.message.hasSuffix("(upload, line 7)."))
  }

  @Test("Timestamps parse from text and print back as written")
  func timestamps() {
    for text in ["2019-05-15", "2019-05-15T14:28:01", "2019-05-15T14:28:01.5Z", "2019-05-15T14:28:01+02:00"] {
      #expect(Timestamp(text)?.description == text, "\(text)")
    }
    #expect(Timestamp("2019-02-30") == nil)
    #expect(Timestamp("yesterday") == nil)
  }
}
