/// Writes a per-account summary (`summary --per-account`,
/// Documentation/Formats.md, "Per-account reports") account by account:
/// memory holds one account's summary and the output buffer.
///
/// - `jsonl`: one line per account,
///   `{"account":"A1","count":N,"by":"category","entries":[…],"totals":[…]}`
///   (the summary's `json` document without its stats, compact; `count` is
///   the account's transactions), and nothing else (the accounting goes to
///   `--stats` and standard error).
/// - `json`: `{"accounts": [ …one account object per line… ], "stats": {…}}`.
/// - `csv`: the summary's columns after a first column `account`.
/// - `text`: per account a header (id and transaction count), then its
///   summary as the text format prints it (table and chart), without the
///   accounting; the run's accounting at the end.
/// - `html`: one page titled after the summary's dimension; per account a
///   section headed by its id and transaction count, then its summary as
///   the `html` summary page draws it (legend, note on scaling, table with
///   bars); the run's accounting at the end, with the number of accounts.
///
/// ```swift
/// var writer = AccountSummaryWriter(format: .jsonl)!
/// try writer.begin(flush: flush)
/// while let account = try cursor.next() { try writer.write(account.sorted(by: .key), flush: flush) }
/// try writer.finish(stats: cursor.stats, flush: flush)
/// ```
public struct AccountSummaryWriter {
  /// The formats a per-account summary can be written in.
  public static let formats: [ReportFormat] = [.jsonl, .json, .csv, .text, .html]

  private let format: ReportFormat
  private let options: SummaryTextOptions
  private let dimension: SummaryDimension
  private var buffer: [UInt8] = []
  private var csvPrefix: [UInt8] = []
  private var document: AccountDocument

  /// A writer for `format` (one of `formats`), with `options` for text and
  /// html (a bar chart fills `width`, 80 columns when it is `nil`);
  /// `dimension`, the accounts' summaries' (`SummaryOptions.dimension`),
  /// titles the html page, which begins before the first account.
  public init?(
    format: ReportFormat, options: TextReportOptions = TextReportOptions(), dimension: SummaryDimension = .category
  ) {
    self.init(format: format, summaryOptions: SummaryTextOptions(options), dimension: dimension)
  }

  /// A writer for `format` with the summary's own text options.
  package init?(format: ReportFormat, summaryOptions options: SummaryTextOptions, dimension: SummaryDimension) {
    guard Self.formats.contains(format) else { return nil }
    self.format = format
    self.options = options
    self.dimension = dimension
    document = AccountDocument(format: format)
    buffer.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
  }

  /// Writes what comes before the first account.
  public mutating func begin<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    document.appendBeginning(
      csvHeader: SummaryCSVWriter.header, htmlTitle: options.locale.queryWords.titles[dimension] ?? "",
      locale: options.locale, source: options.source, to: &buffer)
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes one account (accounts must come in the order they are to be listed).
  public mutating func write<E: Error>(_ account: AccountSummary, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    let report = account.report
    switch format {
    case .json, .jsonl:
      document.appendAccountStart(to: &buffer)
      buffer.append(contentsOf: "{\"account\":".utf8)
      JSONEscaping.appendString(account.account, to: &buffer)
      buffer.append(contentsOf: ",\"count\":".utf8)
      buffer.appendDecimal(account.count)
      buffer.append(contentsOf: ",\"by\":\"".utf8)
      buffer.append(contentsOf: report.dimension.rawValue.utf8)
      buffer.append(contentsOf: "\",\"entries\":[".utf8)
      for (index, entry) in report.entries.enumerated() {
        if index > 0 { buffer.append(.comma) }
        SummaryJSONWriter.appendEntry(entry, to: &buffer)
        try BufferFlushing.flushIfFull(&buffer, flush)
      }
      buffer.append(contentsOf: "],\"totals\":".utf8)
      SummaryJSONWriter.appendCells(report.totals, to: &buffer)
      buffer.append(.closeBrace)
      if format == .jsonl { buffer.append(.newline) }
    case .csv:
      // The account's cell in an array kept from account to account.
      csvPrefix.removeAll(keepingCapacity: true)
      CSVReportWriter.appendTextCell(account.account, to: &csvPrefix)
      csvPrefix.append(.comma)
      try SummaryCSVWriter.appendRows(report, prefix: csvPrefix, to: &buffer, flush: flush)
    case .html:
      HTMLPage.beginAccount(
        account.account, count: account.count, index: document.accounts, locale: options.locale, to: &buffer)
      try HTMLSummaryWriter(locale: options.locale).appendSummary(report, to: &buffer, flush: flush)
      buffer.append(contentsOf: "</section>\n".utf8)
    default:
      TextReportWriter(
        options: TextReportOptions(
          locale: options.locale, color: options.color, width: options.width, theme: options.theme, source: nil)
      )
      .appendAccountHeader(AccountReport(account: account.account, count: account.count, sections: []), to: &buffer)
      // The summary ends with a blank line, which parts it from the next account.
      try SummaryTextWriter(options: options).write(report, stats: false, to: &buffer, flush: flush)
    }
    document.accountWritten()
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes the run's accounting and hands over the last bytes.
  public mutating func finish<E: Error>(stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    try document.finish(
      stats: stats, text: TextReportWriter(options: TextReportOptions(locale: options.locale)), buffer: &buffer,
      flush: flush)
  }
}
