/// Writes a per-account list (`list --per-account`, Documentation/Formats.md,
/// "Per-account reports") account by account, as the cursor hands them out:
/// memory holds the output buffer, whatever the number of accounts.
///
/// - `jsonl`: one line per account,
///   `{"account":"A1","count":N,"transactions":[…],"sum":[…],"page":{…}}` (the
///   list's `json` document without its stats, compact; `count` is the
///   account's matching transactions before paging, `page.matched` too), and
///   nothing else (the accounting goes to `--stats` and standard error).
/// - `json`: `{"accounts": [ …one account object per line… ], "stats": {…}}`.
/// - `csv`: the list's columns after a first column `account`.
/// - `text`: per account a header (id and transaction count), then its list
///   as the text format prints it, without the accounting; the run's
///   accounting at the end.
/// - `html`: one page; per account a section headed by its id and
///   transaction count, then its list as the `html` list page draws it (the
///   table, the sums, the chart per day, its ids unique to the account);
///   the run's accounting at the end, with the number of accounts.
///
/// The library's callers reach it through `ReportRenderer.render(_:format:options:zone:flush:)`
/// of an `AccountListCursor`.
package struct AccountListWriter {
  /// The formats a per-account list can be written in.
  public static let formats: [ReportFormat] = [.jsonl, .json, .csv, .text, .html]

  private let format: ReportFormat
  private let options: TextReportOptions
  private let zone: ZoneResolver
  private var buffer: [UInt8] = []
  private var document: AccountDocument

  /// A writer for `format` (one of `formats`); `options` for text, `zone`
  /// for each row's `date`.
  public init?(format: ReportFormat, options: TextReportOptions = TextReportOptions(), zone: ZoneResolver = .asWritten)
  {
    guard Self.formats.contains(format) else { return nil }
    self.format = format
    self.options = options
    self.zone = zone
    document = AccountDocument(format: format)
    buffer.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
  }

  /// Writes every account `nextAccount` hands out — its id and its matching
  /// transactions before paging — with the page `next` then hands out for
  /// it (an `AccountListCursor`'s methods), then the run's accounting.
  /// `stats` is read after the last account, when the accounts have been counted.
  ///
  /// - Complexity: O(output size).
  package mutating func write<S: Error, E: Error>(
    stats: () -> RunStats, page: PageRequest,
    nextAccount: () throws(S) -> (account: String, matched: Int)?,
    next: () throws(S) -> Transaction?, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(ListRenderer.Failure<S, E>) {
    do throws(E) {
      try begin(flush: flush)
    } catch {
      throw .output(error)
    }
    while true {
      let account: (account: String, matched: Int)?
      do throws(S) {
        account = try nextAccount()
      } catch {
        throw .source(error)
      }
      guard let account else { break }
      // An account's part holds no stats: the run's come once, at the end.
      let context = ListContext(stats: RunStats(), matched: account.matched, page: page, zone: zone)
      try writeAccount(account.account, context: context, next: next, flush: flush)
    }
    do throws(E) {
      try finish(stats: stats(), flush: flush)
    } catch {
      throw .output(error)
    }
  }

  /// `write(stats:page:nextAccount:next:flush:)` for `csv`, `json` and
  /// `jsonl` from the parallel list's entries (`ListEntryLayout`), whose rows
  /// the workers rendered already: each account's page as `next` hands it out
  /// (an `AccountListRows`'s methods), summed entry by entry as `ListRenderer.renderEntries` does.
  /// `stats` is read after the last account, when the accounts have been counted.
  ///
  /// - Complexity: O(output size).
  package mutating func writeEntries<S: Error, E: Error>(
    stats: () -> RunStats, page: PageRequest, nextAccount: () throws(S) -> (account: [UInt8], matched: Int)?,
    next: () throws(S) -> UnsafeRawPointer?, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(ListRenderer.Failure<S, E>) {
    do throws(E) {
      try begin(flush: flush)
    } catch {
      throw .output(error)
    }
    while true {
      let account: (account: [UInt8], matched: Int)?
      do throws(S) {
        account = try nextAccount()
      } catch {
        throw .source(error)
      }
      guard let account else { break }
      let name = String(decoding: account.account, as: UTF8.self)
      // An account object holds no stats: the run's come once, at the end.
      let context = ListContext(stats: RunStats(), matched: account.matched, page: page, zone: zone)
      switch format {
      case .csv:
        // Rows only, as `PrefixedCSV` writes them: no sum line per account.
        var prefix: [UInt8] = []
        CSVReportWriter.appendTextCell(name, to: &prefix)
        prefix.append(.comma)
        try ListRenderer.appendEntries(next: next, to: &buffer, flush: flush) { entry, buffer in
          buffer.append(contentsOf: prefix)
          ListCSVWriter.appendRendered(entry, to: &buffer)
        } finish: { _, _ in
        }
      default:
        document.appendAccountStart(to: &buffer)
        var json = ListJSONWriter(layout: .account(name), context: context)
        json.begin(to: &buffer)
        try ListRenderer.appendEntries(next: next, to: &buffer, flush: flush) { entry, buffer in
          json.appendRendered(ListEntryLayout.row(entry), to: &buffer)
        } finish: { sum, buffer in
          json.finish(sum: sum, to: &buffer)
        }
        if format == .jsonl { buffer.append(.newline) }
      }
      document.accountWritten()
      do throws(E) {
        try BufferFlushing.flushIfFull(&buffer, flush)
      } catch {
        throw .output(error)
      }
    }
    do throws(E) {
      try finish(stats: stats(), flush: flush)
    } catch {
      throw .output(error)
    }
  }

  private mutating func begin<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    document.appendBeginning(
      csvHeader: ListCSVWriter.header, htmlTitle: options.locale.htmlWords.listTitle, locale: options.locale,
      source: options.source, to: &buffer)
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// One account: its header or object start, its page, its footer.
  private mutating func writeAccount<S: Error, E: Error>(
    _ account: String, context: ListContext, next: () throws(S) -> Transaction?,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(ListRenderer.Failure<S, E>) {
    switch format {
    case .json, .jsonl:
      document.appendAccountStart(to: &buffer)
      var writer = ListJSONWriter(layout: .account(account), context: context)
      try ListRenderer.appendPage(&writer, next: next, to: &buffer, flush: flush)
      if format == .jsonl { buffer.append(.newline) }
    case .csv:
      var prefix: [UInt8] = []
      CSVReportWriter.appendTextCell(account, to: &prefix)
      prefix.append(.comma)
      var writer = PrefixedCSV(prefix: prefix, rows: ListCSVWriter(context: context))
      try ListRenderer.appendPage(&writer, next: next, to: &buffer, flush: flush)
    case .html:
      let index = document.accounts
      HTMLPage.beginAccount(account, count: context.matched, index: index, locale: options.locale, to: &buffer)
      var writer = HTMLListWriter(options: options, context: context, idPrefix: "account-\(index)-")
      try ListRenderer.appendPage(&writer, next: next, to: &buffer, flush: flush)
      buffer.append(contentsOf: "</section>\n".utf8)
    default:
      TextReportWriter(
        options: TextReportOptions(
          locale: options.locale, color: options.color, width: options.width, theme: options.theme, source: nil)
      )
      .appendAccountHeader(AccountReport(account: account, count: context.matched, sections: []), to: &buffer)
      var writer = ListTextWriter(options: options, context: context)
      writer.showsStats = false
      try ListRenderer.appendPage(&writer, next: next, to: &buffer, flush: flush)
      buffer.append(.newline)
    }
    document.accountWritten()
    do throws(E) {
      try BufferFlushing.flushIfFull(&buffer, flush)
    } catch {
      throw .output(error)
    }
  }

  private mutating func finish<E: Error>(stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    let text = TextReportWriter(options: TextReportOptions(locale: options.locale, color: false))
    try document.finish(stats: stats, text: text, buffer: &buffer, flush: flush)
  }

  /// The list's CSV rows, each after the account's cell.
  struct PrefixedCSV: ListFormatWriter {
    let prefix: [UInt8]
    let rows: ListCSVWriter

    func begin(to out: inout [UInt8]) {}

    func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
      out.append(contentsOf: prefix)
      rows.append(transaction, total: total, to: &out)
    }

    func finish(sum: SelectionSum, to out: inout [UInt8]) {}
  }
}
