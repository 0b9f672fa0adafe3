import Testing

@testable import TxFold

/// Builds `Transaction`s for the query, summary and sort tests.
enum TransactionSamples {
  /// A transaction from text: the amount is signed (negative is a debit).
  static func make(
    _ id: String, _ time: String, _ amount: String, _ currency: String = "EUR", state: String = "COMPLETED",
    description: String? = nil, category: String? = nil, counterparty: String? = nil, fee: String? = nil
  ) throws -> Transaction {
    let value = try #require(ExactDecimal(amount), "amount \(amount)")
    return Transaction(
      id: id, instant: try #require(TimestampParser.parse(time), "time \(time)"), amount: value, currency: currency,
      creditDebitIndicator: value.isNegative ? .debit : .credit, state: state, description: description,
      category: category, counterparty: counterparty, fee: try fee.map { try #require(ExactDecimal($0)) })
  }

  /// The Spanish ledger seed's records whose dates are valid, in file order
  /// (the four with broken dates are rejected by the reader): signed amounts,
  /// optional fees, id 2911 twice.
  static func spanishLedger() throws -> [Transaction] {
    let rows: [(String, String, String, String?, String?)] = [
      ("4734", "2018-07-11T22:49:24.000Z", "-193.38", "-3.18", "Lorem ipsum dolor sit amet"),
      ("2210", "2018-07-14T16:54:27.000Z", "165.36", nil, "Est ullamco mollit ad in in proident."),
      ("1442", "2018-07-24T18:10:10.000Z", "-113.86", nil, ""),
      ("3369", "2018-07-19T21:33:19.000Z", "-38.67", nil, nil),
      ("2911", "2018-07-29T17:56:43.000Z", "87.84", "-1.11", "Veniam sit ut pariatur do."),
      ("2911", "2018-07-21T19:13:23.000Z", "37.74", "0.0", "Lorem et incididunt aute cillum."),
      ("6595", "2018-07-22T13:48:48.000Z", "87.95", nil, "Minim non sunt cupidatat magna nisi ut duis."),
      ("3371", "2018-07-24T21:29:11.000Z", "-161.56", "-4.95", nil),
      ("6068", "2018-07-26T15:20:52.000Z", "92.54", nil, "Nostrud laboris id officia aliquip."),
      ("2117", "2018-07-28T14:14:17.000Z", "96.56", nil, ""),
      ("9745", "2018-07-26T19:26:10.000Z", "166.83", nil, "Fugiat elit cupidatat ipsum ad Lorem aliquip."),
    ]
    return try rows.map { try make($0.0, $0.1, $0.2, description: $0.4, fee: $0.3) }
  }

  /// A slice of the PAYBACK mock: points (`PBP`), integer categories as
  /// text, `+0200` offsets, not in date order.
  static func payback() throws -> [Transaction] {
    let rows: [(String, String, String, String, String?)] = [
      ("795357452000810", "1", "2022-07-24T10:59:05+0200", "124", "Punkte sammeln"),
      ("098193809705561", "1", "2022-06-23T10:59:05+0200", "1240", "Punkte sammeln"),
      ("094844835601044", "2", "2022-07-22T10:59:05+0200", "53", nil),
      ("554854339484901", "1", "2022-04-10T10:59:05+0200", "353", "Punkte sammeln"),
      ("075903074248681", "3", "2022-11-11T10:59:05+0200", "86", "Punkte sammeln"),
      ("491779356655580", "2", "2022-12-24T11:59:05+0200", "74", "Punkte sammeln"),
      ("053297453069759", "2", "2022-02-04T10:59:05+0200", "2143", "Punkte sammeln"),
    ]
    return try rows.map { try make($0.0, $0.2, $0.3, "PBP", description: $0.4, category: $0.1) }
  }

  static func decimal(_ text: String) throws -> ExactDecimal { try #require(ExactDecimal(text)) }
}
