/// Writes a per-account `group` report (Documentation/Formats.md,
/// "Per-account reports") account by account, as the accounts come: memory
/// holds one account and the output buffer, whatever the number of accounts.
///
/// - `jsonl`: one line per account, `{"account":"A1","count":12,"sections":[…]}`
///   (the sections as `json` has them, compact), and nothing else (the
///   accounting goes to `--stats` and standard error).
/// - `json`: `{"accounts": [ …one account object per line… ], "stats": {…}}`.
/// - `csv`: the group report's columns after a first column `account`.
/// - `text`: per account a header (id and transaction count), then its
///   sections as the text report prints them; the run's accounting at the end.
/// - `html`: one page; per account a section headed by its id and
///   transaction count, its states and their group cards as the `html`
///   report draws them (no chart: a page may hold many accounts); the run's
///   accounting at the end, with the number of accounts.
///
/// ```swift
/// var writer = try AccountReportWriter(format: .jsonl)
/// try writer.begin(flush: flush)
/// while let account = try cursor.next() { try writer.write(account, flush: flush) }
/// try writer.finish(stats: cursor.stats, flush: flush)
/// ```
public struct AccountReportWriter {
  /// The formats a per-account report can be written in.
  public static let formats: [ReportFormat] = [.jsonl, .json, .csv, .text, .html]

  let format: ReportFormat
  private let text: TextReportWriter
  private let html: HTMLReportWriter
  var buffer: [UInt8] = []
  var document: AccountDocument
  /// For writing from tables: the groups' order, and the views of the last
  /// table's groups (its names' ranks and strings, made once per table).
  var scratchOrder: [Int] = []
  var tableViews: TableGroupViews?

  /// A writer for `format` (one of `formats`), with `options` for text.
  public init?(format: ReportFormat, options: TextReportOptions = TextReportOptions()) {
    guard Self.formats.contains(format) else { return nil }
    self.format = format
    text = TextReportWriter(options: options)
    html = HTMLReportWriter(locale: options.locale, source: options.source)
    document = AccountDocument(format: format)
    buffer.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
  }

  /// Writes what comes before the first account.
  public mutating func begin<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    document.appendBeginning(
      csvHeader: CSVReportWriter.header, htmlTitle: html.locale.htmlWords.groupTitle, locale: html.locale,
      source: html.source, to: &buffer)
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes one account (accounts must come in the order they are to be listed).
  public mutating func write<E: Error>(
    _ account: AccountReport, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    switch format {
    case .jsonl:
      try appendAccountObject(account, flush: flush)
      buffer.append(.newline)
    case .json:
      document.appendAccountStart(to: &buffer)
      try appendAccountObject(account, flush: flush)
    case .csv:
      var prefix: [UInt8] = []
      CSVReportWriter.appendTextCell(account.account, to: &prefix)
      prefix.append(.comma)
      try CSVReportWriter(prefix: prefix).appendSections(
        account.sections, to: &buffer,
        afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
    case .html:
      try appendAccountSection(account, flush: flush)
    default:
      text.appendAccountHeader(account, to: &buffer)
      for section in account.sections {
        text.appendSectionHeader(section, to: &buffer)
        for group in section.groups { try text.appendGroup(group, to: &buffer, flush: flush) }
      }
    }
    document.accountWritten()
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// Writes the run's accounting and hands over the last bytes.
  public mutating func finish<E: Error>(stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    try document.finish(stats: stats, text: text, buffer: &buffer, flush: flush)
  }

  /// `<section class="account">`: the account's id and count, then per state a
  /// heading and its cards.
  private mutating func appendAccountSection<E: Error>(
    _ account: AccountReport, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let locale = html.locale
    HTMLPage.beginAccount(account.account, count: account.count, index: document.accounts, locale: locale, to: &buffer)
    if let period = HTMLPage.period(of: account.sections) {
      buffer.append(contentsOf: "<p class=\"sub period\">".utf8)
      HTMLPage.appendTime(period.first, locale: locale, to: &buffer)
      if period.last != period.first {
        buffer.append(contentsOf: " – ".utf8)
        HTMLPage.appendTime(period.last, locale: locale, to: &buffer)
      }
      buffer.append(contentsOf: "</p>\n".utf8)
    }
    try html.appendSections(
      account.sections, idPrefix: "account-\(document.accounts)-", headingLevel: 3, to: &buffer, flush: flush)
    buffer.append(contentsOf: "</section>\n".utf8)
  }

  /// `{"account":"A1","count":12,"sections":[{"state":"PENDING","groups":[…]},…]}`.
  private mutating func appendAccountObject<E: Error>(
    _ account: AccountReport, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    var id = account.account
    id.withUTF8 { Self.appendObjectStart(account: $0, count: account.count, to: &buffer) }
    try SectionsJSON().appendSections(
      account.sections, to: &buffer,
      afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
    buffer.appendLiteral("]}")
  }

  /// `{"account":"A1","count":12,"sections":[`: what comes before an account's sections.
  static func appendObjectStart(account: UnsafeBufferPointer<UInt8>, count: Int, to out: inout [UInt8]) {
    out.appendLiteral("{\"account\":")
    JSONEscaping.appendString(repairing: account, to: &out)
    out.appendLiteral(",\"count\":")
    out.appendDecimal(count)
    out.appendLiteral(",\"sections\":[")
  }

  /// An account's sections as `json` has them, compact:
  /// `{"state":"PENDING","groups":[…]},{"state":"COMPLETED","groups":[…]}`.
  struct SectionsJSON: GroupSectionWriter {
    func appendSectionStart(first: Bool, appendState: (inout [UInt8]) -> Void, to out: inout [UInt8]) {
      if !first { out.append(.comma) }
      out.appendLiteral("{\"state\":")
      appendState(&out)
      out.appendLiteral(",\"groups\":[")
    }

    func appendGroup<Group: GroupView>(_ group: Group, first: Bool, last: Bool, to out: inout [UInt8]) {
      if !first { out.append(.comma) }
      JSONReportWriter.appendGroupObject(group, includingState: false, to: &out)
    }

    func appendSectionEnd(last: Bool, to out: inout [UInt8]) { out.appendLiteral("]}") }
  }
}
