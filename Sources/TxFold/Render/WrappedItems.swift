/// Items parted by ` · ` on a text report's line — a group's totals, a list's
/// sums, a bar chart's full bars, one per currency — that go on at an indent on
/// the next line before an item would pass the line width. A terminal that
/// wrapped the line itself would split an amount (`-KWD 12,3` / `45.670`);
/// here each amount stays whole. Without a width (`--wide`) it is one line.
///
/// ```
///     Total -BTC 12,345.67 · -CHF 12,345.67 · -DKK 12,345.67 · -€12,345.67
///           -£12,345.67 · -¥12,345.67
/// ```
struct WrappedItems {
  static let separator: [UInt8] = Array(" · ".utf8)
  private static let separatorWidth = TerminalColumns.width(of: separator)
  let width: Int?
  /// The column continuation lines start at: under the first item.
  let indent: Int
  private var column: Int
  private var items = 0

  /// Items that start at `column` (the columns the line holds before the first) on a line of
  /// `width` columns, or without bound when `width` is `nil`.
  init(width: Int?, column: Int) {
    self.width = width
    self.column = column
    indent = column
  }

  /// Appends what comes before an item `itemWidth` columns wide: nothing before the first; the
  /// separator; or, when the item would pass the width, a line break and the indent (an item
  /// wider than a whole line still gets a line of its own, never a cut).
  mutating func appendBreak(beforeItemOf itemWidth: Int, to out: inout [UInt8]) {
    if items > 0 {
      if let width, column + Self.separatorWidth + itemWidth > width, column > indent {
        out.append(.newline)
        out.append(contentsOf: repeatElement(UInt8.space, count: indent))
        column = indent
      } else {
        out.append(contentsOf: Self.separator)
        column += Self.separatorWidth
      }
    }
    column += itemWidth
    items += 1
  }
}
