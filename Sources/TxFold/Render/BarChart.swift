/// The bars of the `summary` text chart.
///
/// With only expenses (or only income) a bar fills the chart's width in
/// eighths of a column (`█`, then `▏`…`▉`), in the theme's expense or
/// income colour (red and green by default). With both, the chart diverges around an axis `│`: expense grows
/// left of it, income right of it, each in half the width, to half a column
/// (`▐` and `▌`), so the side tells them apart without colour. A non-zero
/// amount always gets at least the smallest mark.
struct BarChart {
  let width: Int
  let diverging: Bool
  let color: Bool
  /// The colours of the bars when `color` is on.
  var theme = ColorTheme.standard

  private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

  /// The bar of one line, with its colour escapes; empty when it has none.
  func bar(expense: ExactDecimal, income: ExactDecimal, of maximum: ExactDecimal) -> [UInt8] {
    var out: [UInt8] = []
    if !diverging {
      let value = !expense.isZero ? expense : income
      let units = SummaryTextWriter.eighths(value, of: maximum, width: width)
      guard units > 0 else { return [] }
      var cells = String(repeating: "█", count: units / 8)
      cells += Self.eighths[units % 8]
      styled(cells, !expense.isZero ? theme.expense : theme.income, &out)
      return out
    }
    let side = max(1, (width - 1) / 2)
    // Half columns: eighths over a quarter of the width give halves.
    let left = (SummaryTextWriter.eighths(expense, of: maximum, width: side * 2) + 4) / 8
    let right = (SummaryTextWriter.eighths(income, of: maximum, width: side * 2) + 4) / 8
    let leftHalves = !expense.isZero ? max(1, left) : 0
    let rightHalves = !income.isZero ? max(1, right) : 0
    var expenseCells = String(repeating: " ", count: side - (leftHalves + 1) / 2)
    if leftHalves % 2 == 1 { expenseCells += "▐" }
    expenseCells += String(repeating: "█", count: leftHalves / 2)
    out.append(contentsOf: expenseCells.prefix(while: { $0 == " " }).utf8)
    styled(String(expenseCells.drop(while: { $0 == " " })), theme.expense, &out)
    out.append(contentsOf: "│".utf8)
    var incomeCells = String(repeating: "█", count: rightHalves / 2)
    if rightHalves % 2 == 1 { incomeCells += "▌" }
    styled(incomeCells, theme.income, &out)
    return out
  }

  private func styled(_ text: String, _ escape: [UInt8], _ out: inout [UInt8]) {
    guard !text.isEmpty else { return }
    if color { out.append(contentsOf: escape) }
    out.append(contentsOf: text.utf8)
    if color { out.append(contentsOf: TextStyle.reset) }
  }
}
