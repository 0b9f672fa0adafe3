/// A report's group as the machine formats read it: its strings are escaped
/// as they are written, straight into the output (a report is not the hot
/// path; the fold's table is, and it has its names escaped once).
extension TransactionGroup: GroupView {
  var day: CalendarDay { date }
  var indicator: CreditDebitIndicator { creditDebitIndicator }

  func writeStateJSON(to scratch: inout ByteScratch, flushingTo out: inout [UInt8]) {
    scratch.move(to: &out)
    JSONEscaping.appendString(state, to: &out)
  }

  func appendStateCSV(to out: inout [UInt8]) { CSVReportWriter.appendTextCell(state, to: &out) }

  func forEachTotal(_ body: (_ currency: String, _ amount: ExactDecimal, _ count: Int?) -> Void) {
    for total in totals { body(total.currency, total.amount, total.count) }
  }

  func writeCurrencyJSON(_ currency: String, to scratch: inout ByteScratch, flushingTo out: inout [UInt8]) {
    scratch.move(to: &out)
    JSONEscaping.appendString(currency, to: &out)
  }

  func appendCurrencyCSV(_ currency: String, to out: inout [UInt8]) {
    CSVReportWriter.appendTextCell(currency, to: &out)
  }

  func forEachMember(_ body: (GroupMemberText) -> Void) {
    for member in transactions {
      // `withUTF8` needs a variable; a native string's copy shares its storage.
      var id = member.id
      var currency = member.currency
      id.withUTF8 { id in
        currency.withUTF8 { currency in
          var text = GroupMemberText(
            id: id, description: nil, currency: currency, amount: member.amount, instant: member.instant)
          guard var description = member.description else { return body(text) }
          description.withUTF8 { description in
            text.description = description
            body(text)
          }
        }
      }
    }
  }
}
