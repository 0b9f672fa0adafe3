import Foundation
import Testing

/// `txfold list` over a shuffled copy of a dump prints the same bytes, also
/// where records share an id and an instant.
@Suite("txfold list, tied records, end to end")
struct ListTieOrderCommandTests {
  /// Account, creation time, amount, state, description (nil: absent), fee (nil: none); every record's id is `t-1`.
  static let records: [(String, String, String, String, String?, String?)] = [
    ("A1", "2024-03-01T10:00:00Z", "1.5", "PENDING", "Rent", "0.10"),
    ("A1", "2024-03-01T11:00:00+01:00", "1.50", "COMPLETED", "Rent", nil),
    ("A1", "2024-03-01T10:00:00Z", "1.50", "COMPLETED", "=x", nil),
    ("A1", "2024-03-01T10:00:00Z", "1.50", "COMPLETED", "'=x", nil),
    ("A1", "2024-03-01T10:00:00Z", "1.50", "COMPLETED", "(", nil),
    ("A1", "2024-03-01T10:00:00Z", "2", "COMPLETED", nil, nil),
    ("A1", "2024-03-01T10:00:00Z", "2", "COMPLETED", "", nil),
    ("A1", "2024-03-01T10:00:00Z", "2", "COMPLETED", #"a,b \"q\" \u0001"#, nil),
    ("A1", "2024-03-01T10:00:00Z", "1.5", "PENDING", "Rent", "0.10"),
    ("A2", "2024-03-01T10:00:00Z", "3", "COMPLETED", "Salary", nil),
    ("A2", "2024-03-01T10:00:00Z", "3", "PENDING", "Salary", nil),
    ("A2", "2024-03-01T10:00:00Z", "3", "COMPLETED", "Bonus", nil),
  ]

  static func input(_ order: [Int]) -> [UInt8] {
    let lines = order.map { index in
      let (account, time, amount, state, description, fee) = records[index]
      var line =
        #"{"arrangementId":"\#(account)","id":"t-1","creationTime":"\#(time)","#
        + #""transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"#
        + #""creditDebitIndicator":"DBIT","state":"\#(state)""#
      if let description { line += #","description":"\#(description)""# }
      if let fee { line += #","fee":"\#(fee)""# }
      return line + "}\n"
    }
    return Array(lines.joined().utf8)
  }

  @Test(
    "Any input order, thread count and memory limit gives the same bytes, plain and per account",
    arguments: ["csv", "json", "jsonl", "text", "html"])
  func sameBytes(format: String) throws {
    let count = Self.records.count
    let orders = [Array(0..<count), Array((0..<count).reversed()), (0..<count).map { ($0 * 5) % count }]
    for perAccount in [false, true] {
      let common =
        ["list", "--quiet", "--format", format, "--schema", "backbase", "--field", "fee=fee"]
        + (perAccount ? ["--per-account"] : [])
      let expected = try CLIRunner.run(common + ["--threads", "1"], stdin: Self.input(orders[0]))
      #expect(expected.status == 0, "\(expected.stderr)")
      #expect(expected.stdout.count > 500)
      for order in orders {
        for layout in [["--threads", "1"], ["--threads", "3", "--memory-limit", "1"], ["--threads", "2"]] {
          let outcome = try CLIRunner.run(common + layout, stdin: Self.input(order))
          #expect(outcome.status == 0, "\(outcome.stderr)")
          #expect(
            outcome.text == expected.text,
            "\(format), per account \(perAccount), \(layout), order \(order)")
        }
      }
    }
  }
}
