/// Writes a per-account summary (`summary --per-account`,
/// Documentation/Formats.md, "Per-account reports") account by account:
/// memory holds one account's summary and the output buffer.
///
/// - `jsonl`: one line per account,
///   `{"account":"A1","count":N,"by":"category","entries":[…],"totals":[…]}`
///   (the summary's `json` document without its stats, compact; `count` is
///   the account's transactions), then `{"stats":{…,"accounts":K}}`.
/// - `json`: `{"accounts": [ …one account object per line… ], "stats": {…}}`.
/// - `csv`: the summary's columns after a first column `account`.
/// - `text`: per account a header (id and transaction count), then its
///   summary as the text format prints it (table and chart), without the
///   accounting; the run's accounting at the end.
///
/// ```swift
/// var writer = AccountSummaryWriter(format: .jsonl)!
/// try writer.begin(flush: flush)
/// while let account = try cursor.next() { try writer.write(account.sorted(by: .key), flush: flush) }
/// try writer.finish(stats: cursor.stats, flush: flush)
/// ```
public struct AccountSummaryWriter {
  /// The formats a per-account summary can be written in.
  public static let formats: [ReportFormat] = [.jsonl, .json, .csv, .text]

  private let format: ReportFormat
  private let options: SummaryTextOptions
  private var buffer: [UInt8] = []
  private var accountsWritten = 0

  /// A writer for `format` (one of `formats`), with `options` for text.
  public init?(format: ReportFormat, options: SummaryTextOptions = SummaryTextOptions()) {
    guard Self.formats.contains(format) else { return nil }
    self.format = format
    self.options = options
    buffer.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
  }

  /// Writes what comes before the first account.
  public mutating func begin<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    switch format {
    case .json: buffer.append(contentsOf: "{\n  \"accounts\": [".utf8)
    case .csv: buffer.append(contentsOf: "account,\(SummaryCSVWriter.header)\r\n".utf8)
    default: break
    }
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes one account (accounts must come in the order they are to be listed).
  public mutating func write<E: Error>(_ account: AccountSummary, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    let report = account.report
    switch format {
    case .json, .jsonl:
      if format == .json { buffer.append(contentsOf: (accountsWritten == 0 ? "\n    " : ",\n    ").utf8) }
      buffer.append(contentsOf: "{\"account\":".utf8)
      JSONEscaping.appendString(account.account, to: &buffer)
      buffer.append(
        contentsOf: ",\"count\":\(account.count),\"by\":\"\(report.dimension.rawValue)\",\"entries\":[".utf8)
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
      var prefix: [UInt8] = []
      CSVReportWriter.appendTextCell(account.account, to: &prefix)
      prefix.append(.comma)
      try SummaryCSVWriter.appendRows(report, prefix: prefix, to: &buffer, flush: flush)
    default:
      TextReportWriter(options: TextReportOptions(locale: options.locale, color: options.color))
        .appendAccountHeader(AccountReport(account: account.account, count: account.count, sections: []), to: &buffer)
      // The summary ends with a blank line, which parts it from the next account.
      try SummaryTextWriter(options: options).write(report, stats: false, to: &buffer, flush: flush)
    }
    accountsWritten += 1
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes the run's accounting and hands over the last bytes.
  public mutating func finish<E: Error>(stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    var stats = stats
    if stats.accounts == nil { stats.accounts = accountsWritten }
    switch format {
    case .jsonl:
      JSONLinesReportWriter.appendStats(stats, to: &buffer)
    case .json:
      buffer.append(contentsOf: accountsWritten == 0 ? "],\n".utf8 : "\n  ],\n".utf8)
      buffer.append(contentsOf: "  \"stats\": ".utf8)
      JSONReportWriter.appendStats(stats, to: &buffer)
      buffer.append(contentsOf: "\n}\n".utf8)
    case .csv:
      break
    default:
      if accountsWritten == 0 {
        buffer.append(contentsOf: options.locale.noTransactions.utf8)
        buffer.append(contentsOf: "\n\n".utf8)
      }
      TextReportWriter(options: TextReportOptions(locale: options.locale)).appendStats(stats, to: &buffer)
    }
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
