/// The pages of `--per-account --format html --output-dir DIR` — `group`,
/// `merge`, `list` and `summary` (Documentation/Formats.md, "One page per
/// account"): one self-contained page per account, and an index of the
/// accounts in pre-rendered orders. `AccountPageDirectory` writes them.
///
/// - An account's page is the command's `html` report of that account
///   alone: its title and heading name the account, the input and the
///   period (the first and last day of the account's transactions; for
///   `list`, of its matching ones, all pages); a link back to the index and the
///   account's transaction count; then what the one-page report shows in
///   the account's section — `group`'s cards and chart (`page(for:)` of an
///   `AccountReport`), `summary`'s tables (`page(for:days:)` of an
///   `AccountSummary`), `list`'s rows, sums and chart (`writeListPage`,
///   streamed: an account's rows are never all in memory). The run's
///   accounting is on the index, not repeated on every page.
/// - The index lists every account — its id (a link to its page), its
///   transactions, its period, and its income and expense per currency — in
///   pre-rendered orders, each a page of its own: `index.html` by account
///   id (byte-wise, the order accounts come in), `index-by-count.html` most
///   transactions first, `index-by-latest.html` most recent last day first
///   (ties by id). "Sortable without script": the column headings link to
///   the pages. Separate pages rather than one page with three tables shown
///   by `:target`, so that an index of a million accounts is not three
///   times as heavy to open. A summary's index (`periods: false`) lists
///   counts and totals only: no period column and no
///   `index-by-latest.html`; its title still names the run's period.
///   Every index's title names the first and last day of its accounts'
///   periods (for `list`, of the rows its pages show, as its column does).
/// - File names come from `fileName(for:)`: never a path, never a
///   collision (see there).
///
/// Memory: a `group`, `merge` or `summary` account's page is built whole
/// (the account's report is in memory already); the index notes one small
/// entry per account (its id, file name, count, period and sums), held
/// within an eighth of the run's memory limit and spilled to disk past it
/// (`HTMLIndexEntries`), until the index pages are written, one after
/// another, each as it is made (`writeIndexPage`).
package struct HTMLAccountPages {
  /// What the index shows of one account.
  package struct Entry {
    let account: String
    let fileName: String
    let count: Int
    let period: (first: CalendarDay, last: CalendarDay)?
    /// Per currency (by code), income and expense as magnitudes; `nil` once a sum overflowed.
    let sums: [(currency: String, income: ExactDecimal?, expense: ExactDecimal?)]
  }

  let options: TextReportOptions
  let locale: ReportLocale
  let source: String?
  private let writer: HTMLReportWriter
  private let entries: HTMLIndexEntries
  /// Whether the index has a period column and the order by latest day.
  package let periods: Bool

  /// Every order an index can have, each a file: by id, by count, by latest day.
  package static let indexFiles = ["index.html", "index-by-count.html", "index-by-latest.html"]

  /// This index's orders (`indexFiles`, without the order by latest day when it shows no periods).
  package var indexFiles: [String] { periods ? Self.indexFiles : Array(Self.indexFiles.prefix(2)) }

  /// Why an index page was not written.
  package enum IndexFailure<OutputFailure: Error>: Error {
    /// The index's entries spilled past their budget, and their temporary storage failed.
    case spill(SpillError)
    /// `flush` threw.
    case output(OutputFailure)
  }

  /// The share of the run's memory limit the index's entries are held in before they spill.
  static let indexShare = 8

  /// Pages in `options`' locale, naming its source; `periods: false` for an
  /// index without a period column (`summary`'s). The index's entries are
  /// held in `memoryLimit / indexShare` bytes, and past them spilled to a
  /// private directory in `temporaryDirectory` (default `$TMPDIR`, else
  /// `/tmp`), which `onTemporaryDirectory` is told of as it is made, for
  /// removal on an interrupt.
  package init(
    options: TextReportOptions, periods: Bool = true, memoryLimit: Int = .max, temporaryDirectory: String? = nil,
    onTemporaryDirectory: @escaping (String) -> Void = { _ in }
  ) {
    self.options = options
    locale = options.locale
    source = options.source
    self.periods = periods
    writer = HTMLReportWriter(locale: options.locale, source: options.source)
    entries = HTMLIndexEntries(
      budget: memoryLimit / Self.indexShare, orders: periods ? Self.indexFiles.count : 2,
      temporaryDirectory: temporaryDirectory, register: onTemporaryDirectory)
  }

  /// The index's runs on disk, the merge passes' included (0: it stayed in memory).
  package var indexSpilledRuns: Int { entries.spilledRuns }

  /// The file name of `account`'s page: a readable slug of the id and a hash
  /// of its exact bytes, `a1-3f9c0d2e8b7a6154.html`.
  ///
  /// - The slug keeps ASCII letters (lower-cased) and digits, turns every run
  ///   of other bytes (`/`, `.`, control characters, spaces, non-ASCII) into
  ///   one `-`, drops `-` at either end, and is cut to 40 bytes (`account`
  ///   when nothing is left). So no name holds a `/`, starts with `.` or
  ///   `-`, or is longer than 63 bytes: no path traversal, no hidden file, no
  ///   option-looking name, and every file system's limit is kept.
  /// - The hash, FNV-1a of 64 bits over the id's exact UTF-8 bytes as 16 hex
  ///   digits, tells apart ids that slug alike: `A1`, `a1`, `a/1`, `a\u{1}1`.
  ///   Names are lower case, so they differ on a case-insensitive file system too.
  /// - Two ids with the same slug and hash (astronomically unlikely, but
  ///   FNV is no cryptographic hash and an id can be crafted): the writer
  ///   creates files exclusively and gives the later one `-2` (`-3`, …)
  ///   before `.html` (`OutputDirectory.create`), so nothing is overwritten.
  package static func fileName(for account: String) -> String {
    var slug: [UInt8] = []
    var pendingDash = false
    for byte in account.utf8 {
      let kept: UInt8?
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept = byte
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 32
      default: kept = nil
      }
      guard let kept else {
        pendingDash = !slug.isEmpty
        continue
      }
      if slug.count >= 40 { break }
      if pendingDash {
        slug.append(UInt8(ascii: "-"))
        pendingDash = false
        if slug.count >= 40 { break }
      }
      slug.append(kept)
    }
    while slug.last == UInt8(ascii: "-") { slug.removeLast() }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in account.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    var hex = String(hash, radix: 16)
    hex = String(repeating: "0", count: 16 - hex.count) + hex
    let stem = slug.isEmpty ? "account" : String(decoding: slug, as: UTF8.self)
    return "\(stem)-\(hex).html"
  }

  /// What every account's page begins with: the document's head, its
  /// heading (the page's kind, the account, the input, the period when
  /// known), and a line with the link back to the index and the account's
  /// transaction count.
  package func beginPage(
    title: String, account: String, count: Int, period: (first: CalendarDay, last: CalendarDay)?,
    to out: inout [UInt8]
  ) {
    HTMLPage.begin(
      title: title, subtitle: nil, heading: HTMLPage.Heading(source: source, account: account, period: period),
      locale: locale, to: &out)
    out.append(contentsOf: "<p class=\"sub\"><a href=\"index.html\">".utf8)
    out.append(contentsOf: locale.htmlWords.allAccounts.utf8)
    out.append(contentsOf: "</a> · <span class=\"count\">".utf8)
    locale.appendCounted(count, singular: locale.transactionSingular, plural: locale.transactionPlural, to: &out)
    out.append(contentsOf: "</span></p>\n".utf8)
  }

  /// The page of one account of `group` or `merge`, whole.
  package func page(for account: AccountReport) -> [UInt8] {
    var out: [UInt8] = []
    beginPage(
      title: locale.htmlWords.groupTitle, account: account.account, count: account.count,
      period: HTMLPage.period(of: account.sections), to: &out)
    // The writers flush (hand over and empty) their buffer as it fills: the page collects it.
    var page: [UInt8] = []
    let sink = { (chunk: inout [UInt8]) -> Void in
      page.append(contentsOf: chunk)
      chunk.removeAll(keepingCapacity: true)
    }
    writer.appendSections(account.sections, idPrefix: "", headingLevel: 2, to: &out, flush: sink)
    let chart = HTMLDailyChart(sections: account.sections)
    chart.write(locale: locale, to: &out, flush: sink)
    HTMLPage.end(to: &out)
    page.append(contentsOf: out)
    return page
  }

  /// Notes `account` (of `group` or `merge`) for the index, its page written as `fileName`.
  package mutating func add(_ account: AccountReport, fileName: String) throws(SpillError) {
    var sums: [String: (income: ExactDecimal?, expense: ExactDecimal?)] = [:]
    for section in account.sections {
      for group in section.groups {
        let debit = group.creditDebitIndicator == .debit
        for total in group.totals {
          var entry = sums[total.currency] ?? (ExactDecimal.zero, ExactDecimal.zero)
          switch HTMLPage.Direction(magnitude: total.amount, debit: debit) {
          case .income: entry.income = total.amount.wide == .min ? nil : entry.income?.adding(total.amount.magnitude)
          case .expense:
            entry.expense = total.amount.wide == .min ? nil : entry.expense?.adding(total.amount.magnitude)
          case .none: break
          }
          sums[total.currency] = entry
        }
      }
    }
    try add(
      account: account.account, fileName: fileName, count: account.count,
      period: HTMLPage.period(of: account.sections), sums: sums)
  }

  /// Notes an account for the index: its page written as `fileName`, its
  /// transactions, the days its page shows, and per currency its income and
  /// expense as magnitudes (`nil`: the sum overflowed).
  package mutating func add(
    account: String, fileName: String, count: Int, period: (first: CalendarDay, last: CalendarDay)?,
    sums: [String: (income: ExactDecimal?, expense: ExactDecimal?)]
  ) throws(SpillError) {
    let sorted = sums.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    try entries.add(
      Entry(
        account: account, fileName: fileName, count: count, period: period,
        sums: sorted.map { ($0.key, $0.value.income, $0.value.expense) }))
  }

  /// The index pages (`indexFiles`), in that order, with the run's accounting, each whole (tests).
  package func indexPages(stats: RunStats) throws(IndexFailure<Never>) -> [(name: String, bytes: [UInt8])] {
    var pages: [(name: String, bytes: [UInt8])] = []
    for (order, name) in indexFiles.enumerated() {
      var bytes: [UInt8] = []
      try writeIndexPage(order, stats: stats) { (chunk: inout [UInt8]) in
        bytes.append(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
      }
      pages.append((name, bytes))
    }
    return pages
  }

  /// Writes index page number `order` of `indexFiles` — its accounts by id,
  /// by count or by latest day — with the run's accounting, handing its bytes
  /// to `flush` a buffer at a time: an index of a million accounts is
  /// hundreds of megabytes, written as it is made, one page after another,
  /// not held whole, its entries read back in the page's order
  /// (`HTMLIndexEntries.forEach`). No account may be noted after.
  package func writeIndexPage<E: Error>(_ order: Int, stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void)
    throws(IndexFailure<E>)
  {
    var stats = stats
    if stats.accounts == nil { stats.accounts = entries.count }
    var out: [UInt8] = []
    let words = locale.htmlWords
    HTMLPage.begin(
      title: words.accountsTitle, subtitle: nil, heading: HTMLPage.Heading(source: source, period: entries.period),
      locale: locale, to: &out)
    if entries.count == 0 {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.emptyAccounts(stats).utf8)
      out.append(contentsOf: "</p>\n".utf8)
    } else {
      let queryWords = locale.queryWords
      let headings = [locale.accountWord, queryWords.count, words.period].prefix(indexFiles.count)
      out.append(contentsOf: "<nav class=\"sort\" aria-label=\"".utf8)
      out.append(contentsOf: words.sortBy.utf8)
      out.append(contentsOf: "\">".utf8)
      out.append(contentsOf: words.sortBy.utf8)
      out.append(contentsOf: ":".utf8)
      for (index, heading) in headings.enumerated() {
        out.append(contentsOf: " <a href=\"\(Self.indexFiles[index])\"".utf8)
        if index == order { out.append(contentsOf: " aria-current=\"page\"".utf8) }
        out.append(contentsOf: ">".utf8)
        out.append(contentsOf: heading.utf8)
        out.append(contentsOf: "</a>".utf8)
      }
      out.append(contentsOf: "</nav>\n<table class=\"rows index\">\n<thead><tr>".utf8)
      for (index, heading) in headings.enumerated() {
        out.append(contentsOf: "<th scope=\"col\"\(index == 1 ? " class=\"num\"" : "")".utf8)
        if index == order { out.append(contentsOf: " aria-sort=\"\(index == 0 ? "ascending" : "descending")\"".utf8) }
        out.append(contentsOf: "><a href=\"\(Self.indexFiles[index])\">".utf8)
        out.append(contentsOf: heading.utf8)
        out.append(contentsOf: "</a></th>".utf8)
      }
      for heading in [queryWords.income, queryWords.expense] {
        out.append(contentsOf: "<th scope=\"col\" class=\"num\">".utf8)
        out.append(contentsOf: heading.utf8)
        out.append(contentsOf: "</th>".utf8)
      }
      out.append(contentsOf: "</tr></thead>\n<tbody>\n".utf8)
      try entries.forEach(order: order) { (entry) throws(E) in
        appendRow(entry, to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
      out.append(contentsOf: "</tbody>\n</table>\n".utf8)
    }
    HTMLPage.appendAccounting(stats, locale: locale, to: &out)
    HTMLPage.end(to: &out)
    do throws(E) { try flush(&out) } catch { throw .output(error) }
  }

  private func appendRow(_ entry: Entry, to out: inout [UInt8]) {
    let queryWords = locale.queryWords
    out.append(contentsOf: "<tr><th scope=\"row\" class=\"wide id-cell\"><a href=\"".utf8)
    // Safe because the name is made of [a-z0-9-.] only (`fileName(for:)`).
    out.append(contentsOf: entry.fileName.utf8)
    out.append(contentsOf: "\">".utf8)
    HTMLPage.appendID(entry.account, to: &out)
    out.append(contentsOf: "</a></th>".utf8)
    HTMLPage.openCell(class: "num", label: queryWords.count, to: &out)
    locale.appendInteger(entry.count, to: &out)
    out.append(contentsOf: "</td>".utf8)
    if periods {
      HTMLPage.openCell(class: "period", label: locale.htmlWords.period, to: &out)
      if let period = entry.period {
        HTMLPage.appendTime(period.first, locale: locale, to: &out)
        if period.last != period.first {
          out.append(contentsOf: " – ".utf8)
          HTMLPage.appendTime(period.last, locale: locale, to: &out)
        }
      }
      out.append(contentsOf: "</td>".utf8)
    }
    for (word, income) in [(queryWords.income, true), (queryWords.expense, false)] {
      HTMLPage.openCell(class: "num sums", label: word, to: &out)
      var written = false
      for sum in entry.sums {
        guard let amount = income ? sum.income : sum.expense else {
          if written { out.append(.space) }
          out.append(contentsOf: "<span class=\"amt zero\">".utf8)
          out.append(contentsOf: locale.htmlWords.tooLargeToChart.utf8)
          out.append(contentsOf: "</span>".utf8)
          written = true
          continue
        }
        guard !amount.isZero else { continue }
        if written { out.append(.space) }
        HTMLPage.appendMoney(
          amount, currency: sum.currency, direction: income ? .income : .expense, locale: locale, to: &out)
        written = true
      }
      out.append(contentsOf: "</td>".utf8)
    }
    out.append(contentsOf: "</tr>\n".utf8)
  }
}
