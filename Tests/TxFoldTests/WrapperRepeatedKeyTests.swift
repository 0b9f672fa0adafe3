import Testing

@testable import TxFold

/// A wrapper key repeated in one object: the first array is read (its records
/// are already folded when the second begins), and the later array's records
/// are rejected, each one, rather than silently added.
@Suite("Wrapper repeated keys")
struct WrapperRepeatedKeyTests {
  static func payback(_ reference: String, day: Int) -> String {
    #"{"alias":{"reference":"\#(reference)"},"partnerDisplayName":"X","transactionDetail":{"bookingDate":"2022-07-\#(10 + day)T10:00:00Z","value":{"amount":\#(day),"currency":"PBP"}}}"#
  }

  @Test("items twice: the second array's records are rejected on every chunk size")
  func itemsTwice() throws {
    let document = """
      {"items": [\(Self.payback("a", day: 1))],
       "other": {"items": [1]},
       "items": [\(Self.payback("b", day: 2)), \(Self.payback("c", day: 3))]}
      """
    let reference = try framedRun(document)
    #expect(reference.report.stats.lines == 3)
    #expect(reference.report.stats.accepted == 1)
    #expect(reference.rejections.map(\.reason) == [.invalidJSON, .invalidJSON])
    #expect(reference.rejections.allSatisfy { $0.detail.contains("repeats the key") })
    #expect(reference.report.sections.flatMap(\.groups).flatMap(\.transactions).map(\.id) == ["a"])
    for size in [1, 7, 64] {
      #expect(try framedRun(document, chunkSize: size, step: size, threads: 2) == reference, "size \(size)")
    }
  }

  @Test("PSD2: transactions twice, and booked twice, reject the later arrays' records")
  func psd2Twice() throws {
    let booked = WrapperFramingTests.booked
    // Over lines, as real documents are: a one-line object is a JSON line.
    let twiceBooked = "{\"transactions\": {\"booked\": [\(booked)],\n \"booked\": [\(booked)]}}"
    let run = try framedRun(twiceBooked)
    #expect(run.report.stats.accepted == 1)
    #expect(run.rejections.count == 1)
    let twiceTransactions =
      "{\"transactions\": {\"booked\": [\(booked)]},\n \"transactions\": {\"pending\": [\(booked)]}}"
    let second = try framedRun(twiceTransactions)
    #expect(second.report.stats.accepted == 1)
    #expect(second.rejections.count == 1)
  }

  @Test("Separate documents and separate objects each read their own array")
  func notRepeated() throws {
    let two = """
      {"items": [\(Self.payback("a", day: 1))]}
      {"items": [\(Self.payback("b", day: 2))]}
      """
    let run = try framedRun(two) { $0.read.itemsPath = ["items"] }
    #expect(run.report.stats.accepted == 2)
    #expect(run.rejections.isEmpty)
    let nullFirst = "{\"items\": null,\n \"items\": [\(Self.payback("a", day: 1))]}"
    let nulled = try framedRun(nullFirst)
    #expect(nulled.report.stats.accepted == 1)
    #expect(nulled.rejections.isEmpty)
  }
}
