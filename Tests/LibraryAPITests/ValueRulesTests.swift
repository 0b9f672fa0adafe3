import Foundation
import Testing
import TxFold

/// Money and time an app builds itself follow the decoder's rules: amounts
/// from text only, timestamps from dates, transactions normalised.
@Suite("Values an app builds: exact literals, negation, dates, normalised transactions")
struct ValueRulesTests {
  @Test("A string literal is the exact amount it writes, scale included")
  func stringLiteral() {
    let price: ExactDecimal = "3.133"
    #expect(price.description == "3.133")
    let padded: ExactDecimal = "12.80"
    #expect(padded.description == "12.80")
    #expect(padded == ExactDecimal(String("12.8")))
    let literalArgument = ExactDecimal("0.10")  // not optional: the literal initialiser
    #expect(literalArgument + "0.20" == "0.30")
    #expect((literalArgument + "0.20").description == "0.30")
    // Text from outside stays failable.
    let text = "1e3"
    #expect(ExactDecimal(text) == nil)
  }

  @Test("Prefix minus negates and keeps the scale")
  func negation() {
    let amount: ExactDecimal = "1.50"
    #expect((-amount).description == "-1.50")
    #expect((-(-amount)).description == "1.50")
    #expect(-ExactDecimal.zero == .zero)
    #expect(-amount + amount == .zero)
  }

  @Test("Timestamp(date:) is the date's instant in UTC, written with Z")
  func timestampFromDate() throws {
    let stamp = try #require(Timestamp(date: Date(timeIntervalSince1970: 1_558_103_281)))
    #expect(stamp.description == "2019-05-17T14:28:01Z")
    #expect(stamp.epochSeconds == 1_558_103_281)
    let millis = try #require(Timestamp(date: Date(timeIntervalSince1970: 1_558_103_281.25)))
    #expect(millis.description == "2019-05-17T14:28:01.250Z")
    let before1970 = try #require(Timestamp(date: Date(timeIntervalSince1970: -1.5)))
    #expect(before1970.description == "1969-12-31T23:59:58.500Z")
    #expect(before1970.epochSeconds == -2)
    // Back through Date and the decoder: the same instant.
    let parsed = try JSONDecoder().decode([Timestamp].self, from: Data(#"["2024-02-29T23:59:59.123Z"]"#.utf8))[0]
    #expect(Timestamp(date: parsed.date) == parsed)
    #expect(Timestamp(date: parsed.date)?.description == "2024-02-29T23:59:59.123Z")
    #expect(Timestamp(date: Date(timeIntervalSince1970: 253_402_300_800)) == nil)  // 10000-01-01
    #expect(Timestamp(date: Date(timeIntervalSince1970: 253_402_300_799))?.description == "9999-12-31T23:59:59Z")
    #expect(Timestamp(date: Date(timeIntervalSince1970: -62_135_596_801)) == nil)
    #expect(Timestamp(date: Date(timeIntervalSince1970: -62_135_596_800))?.description == "0001-01-01T00:00:00Z")
  }

  static func transaction(_ amount: ExactDecimal, _ indicator: CreditDebitIndicator, currency: String = "EUR")
    throws -> Transaction
  {
    Transaction(
      id: "t", instant: try #require(Timestamp(date: Date(timeIntervalSince1970: 0))), amount: amount,
      currency: currency, creditDebitIndicator: indicator, state: "pending")
  }

  @Test("Transaction.init: the indicator decides the sign; codes are upper-cased")
  func transactionRules() throws {
    #expect(try Self.transaction("-5.00", .credit).amount.description == "5.00")
    #expect(try Self.transaction("5.00", .debit).amount.description == "-5.00")
    #expect(try Self.transaction("-5.00", .debit).amount.description == "-5.00")
    #expect(try Self.transaction("5.00", .credit).amount.description == "5.00")
    #expect(try Self.transaction("0", .debit).amount == .zero)
    let lower = try Self.transaction("1", .credit, currency: "eur")
    #expect(lower.currency == "EUR")
    #expect(lower.state == "PENDING")
    // One currency in the totals, as the decoder makes it.
    let report = try TransactionGrouping.group([lower, try Self.transaction("2", .credit, currency: "EUR")])
    #expect(report.sections.first?.groups.first?.totals == [CurrencyTotal(currency: "EUR", amount: "3")])
    #expect(report.sections.first?.state == "PENDING")
  }

  /// -2^127 is an `ExactDecimal` (a sum can reach it, and its text decodes), but its magnitude,
  /// which a group's total is, does not fit 128 bits: grouping it is an overflow, never a trap.
  @Test("Grouping an amount of -2^127 throws SumOverflow, in either direction")
  func smallestAmount() throws {
    let smallest = try #require(ExactDecimal(String("-170141183460469231731687303715884105728")))
    for indicator in [CreditDebitIndicator.debit, .credit] {
      let transaction = Transaction(
        id: "t", instant: try #require(Timestamp(date: Date(timeIntervalSince1970: 0))), amount: smallest,
        currency: "EUR", creditDebitIndicator: indicator, state: "COMPLETED")
      #expect(throws: SumOverflow(currency: "EUR", state: "COMPLETED", date: "1970-01-01")) {
        try TransactionGrouping.group([transaction])
      }
      var account = transaction
      account.account = "A"
      #expect(throws: SumOverflow.self) { try TransactionGrouping.groupPerAccount([account]).first?.get() }
    }
  }

  /// States are compared byte-wise (upper-cased ASCII), as the fold and the machine formats do:
  /// `ÉTAT` written with one scalar and with a combining accent are two states, two sections.
  @Test("States that differ only in Unicode normalisation are two sections")
  func statesAreBytes() throws {
    let stamp = try JSONDecoder().decode(Timestamp.self, from: Data(#""2024-05-17T10:00:00Z""#.utf8))
    let transactions = ["\u{C9}TAT", "E\u{301}TAT"].enumerated().map {
      Transaction(
        id: "\($0.offset)", instant: stamp, amount: "1.00", currency: "EUR", creditDebitIndicator: .debit,
        state: $0.element)
    }
    let report = try TransactionGrouping.group(transactions)
    #expect(report.sections.map { Array($0.state.utf8) } == [Array("E\u{301}TAT".utf8), Array("\u{C9}TAT".utf8)])
    #expect(report.sections.allSatisfy { $0.groups.count == 1 })
  }
}
