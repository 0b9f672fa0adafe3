/// An amount with its currency as a text report shows it, split where the
/// decimal separator goes so a column of amounts lines up on it.
///
/// `head` runs to the last integer digit (sign, a leading symbol, digits with
/// grouping), `tail` holds the rest (the separator, fraction digits and a
/// trailing symbol). An amount without fraction digits has them all in `head`
/// and a trailing symbol alone in `tail`.
struct MoneyText: Equatable {
  var head: [UInt8] = []
  var tail: [UInt8] = []

  /// The whole text.
  var bytes: [UInt8] { head + tail }

  /// The widest head and tail of `cells`, in terminal columns.
  static func columnWidths(_ cells: [MoneyText]) -> (head: Int, tail: Int) {
    var head = 0
    var tail = 0
    for cell in cells {
      head = max(head, TerminalColumns.width(of: cell.head))
      tail = max(tail, TerminalColumns.width(of: cell.tail))
    }
    return (head, tail)
  }

  /// The spaces before the cell that right-align its head in `headWidth` columns.
  func leadingPadding(headWidth: Int) -> Int {
    max(0, headWidth - TerminalColumns.width(of: head))
  }

  /// The spaces after the cell that fill its tail to `tailWidth` columns.
  func trailingPadding(tailWidth: Int) -> Int {
    max(0, tailWidth - TerminalColumns.width(of: tail))
  }
}
