/// What every per-account document shares around its accounts (Documentation/Formats.md,
/// "Per-account reports"), whatever each account holds (a report, a list page, a summary):
///
/// - `jsonl`: the accounts' lines only (the accounting goes to `--stats` and standard error);
/// - `json`: `{"accounts": [` one account per line `], "stats": {…}}`;
/// - `csv`: a header whose first column is `account`;
/// - `text`: the accounts, then the run's accounting (or "no transactions" first when there
///   were none).
///
/// `html` is one page (`HTMLPage.begin`, `HTMLPage.endAccounts`), each account a section of it
/// (`HTMLPage.beginAccount`).
struct AccountDocument {
  let format: ReportFormat
  /// Accounts written so far.
  private(set) var accounts = 0

  init(format: ReportFormat) { self.format = format }

  /// What comes before the first account: `csvHeader` is the columns after
  /// `account`; the html page is headed `htmlTitle`, in `locale`, for the
  /// input `source`.
  func appendBeginning(
    csvHeader: String, htmlTitle: @autoclosure () -> String, locale: ReportLocale, source: String?,
    to out: inout [UInt8]
  ) {
    switch format {
    case .json: out.append(contentsOf: "{\n  \"accounts\": [".utf8)
    case .csv: out.append(contentsOf: "account,\(csvHeader)\r\n".utf8)
    case .html:
      HTMLPage.begin(
        title: htmlTitle(), subtitle: nil, heading: HTMLPage.Heading(source: source), locale: locale, to: &out)
    default: break
    }
  }

  /// What comes before each account: in `json`, the separator and indentation.
  func appendAccountStart(to out: inout [UInt8]) {
    if format == .json { out.append(contentsOf: (accounts == 0 ? "\n    " : ",\n    ").utf8) }
  }

  /// One more account was written.
  mutating func accountWritten() { accounts += 1 }

  /// How every per-account writer ends: html closes the page with the
  /// accounting and the accounts' index (in `text`'s locale), the other
  /// formats as `appendEnd`; then the last bytes go to `flush`.
  func finish<E: Error>(
    stats: RunStats, text: TextReportWriter, buffer: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    if format == .html {
      HTMLPage.endAccounts(stats: stats, accounts: accounts, locale: text.locale, to: &buffer)
    } else {
      appendEnd(stats: stats, text: text, to: &buffer)
    }
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Puts the document after `count` accounts: a writer rendering one
  /// account of a batch elsewhere (on another thread) starts it as the
  /// account in that place would start.
  mutating func resume(afterAccounts count: Int) { accounts = count }

  /// What comes after the last account, with the run's `stats` (`accounts` set
  /// to the number written unless the run set it); `text` writes the accounting.
  /// `jsonl` gets nothing: it holds only the accounts' lines.
  func appendEnd(stats: RunStats, text: TextReportWriter, to out: inout [UInt8]) {
    var stats = stats
    if stats.accounts == nil { stats.accounts = accounts }
    switch format {
    case .json:
      out.append(contentsOf: accounts == 0 ? "],\n".utf8 : "\n  ],\n".utf8)
      out.append(contentsOf: "  \"stats\": ".utf8)
      JSONReportWriter.appendStats(stats, to: &out)
      out.append(contentsOf: "\n}\n".utf8)
    case .text:
      if accounts == 0 {
        out.append(contentsOf: text.locale.emptyAccounts(stats).utf8)
        out.append(contentsOf: "\n\n".utf8)
      }
      text.appendStats(stats, to: &out)
    default:
      break
    }
  }
}
