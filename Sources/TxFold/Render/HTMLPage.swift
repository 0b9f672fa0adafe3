/// The shell every `html` report shares: the page head with its inline style
/// sheet, the run's accounting, amounts, and escaping of input text.
///
/// The page is self-contained: no script, no external style sheet, font,
/// image or URL of any kind, so it opens offline, from a mail attachment or
/// on a phone. The style sheet adapts to the width (one column of cards on a
/// phone, a grid on a desktop), to the reader's colour scheme
/// (`prefers-color-scheme: dark`) and to print (black on white, cards not
/// split across pages).
///
/// Colours are a blue for income and an orange for expense (distinct for
/// red/green colour-blind readers and in greyscale), each at least 4.5:1
/// against its background in both schemes; colour never carries meaning
/// alone: amounts have a sign (`+` income, `-` expense), indicators a word
/// and a sign, and expense bars a hatch pattern.
enum HTMLPage {
  private static let replacementCharacter: [UInt8] = Array("\u{FFFD}".utf8)

  /// What a page's `<title>` and heading name besides its kind ("Grouped
  /// transactions"): the input, the account of a per-account page, and the
  /// period the report covers (its first and last day).
  struct Heading {
    /// The input's name (`TextReportOptions.source`), shown as written but escaped.
    var source: String?
    /// The account of a page that shows one account.
    var account: String?
    /// The first and the last day the page shows.
    var period: (first: CalendarDay, last: CalendarDay)?

    init(source: String? = nil, account: String? = nil, period: (first: CalendarDay, last: CalendarDay)? = nil) {
      self.source = source
      self.account = account
      self.period = period
    }
  }

  /// Appends the document up to and including `<body>` and the page's heading:
  /// `<title>` and `<h1>` say what the page is (`title`), and, when `heading`
  /// knows them, the account, the input and the period — `Grouped transactions
  /// · Account A1 · dump.jsonl · May 1, 2019 – May 31, 2019`; the `<h1>` holds
  /// the kind and the account, the line under it the input and the period.
  static func begin(
    title: String, subtitle: String?, heading: Heading = Heading(), locale: ReportLocale, to out: inout [UInt8]
  ) {
    out.append(contentsOf: "<!DOCTYPE html>\n<html lang=\"".utf8)
    out.append(contentsOf: locale.identifier.utf8)
    out.append(contentsOf: "\">\n<head>\n<meta charset=\"utf-8\">\n".utf8)
    out.append(contentsOf: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n".utf8)
    out.append(contentsOf: "<meta name=\"color-scheme\" content=\"light dark\">\n".utf8)
    out.append(contentsOf: "<meta name=\"generator\" content=\"txfold\">\n<title>".utf8)
    appendEscaped(title, to: &out)
    if let account = heading.account {
      out.append(contentsOf: " · ".utf8)
      appendEscaped(locale.accountWord, to: &out)
      out.append(.space)
      appendEscaped(account, to: &out)
    }
    if let source = heading.source {
      out.append(contentsOf: " · ".utf8)
      appendEscaped(source, to: &out)
    }
    if let period = heading.period {
      out.append(contentsOf: " · ".utf8)
      locale.appendLongDate(period.first, to: &out)
      if period.last != period.first {
        out.append(contentsOf: " – ".utf8)
        locale.appendLongDate(period.last, to: &out)
      }
    }
    out.append(contentsOf: "</title>\n<style>\n".utf8)
    out.append(contentsOf: styleSheet.utf8)
    out.append(contentsOf: "</style>\n</head>\n<body>\n<header class=\"page\">\n<h1>".utf8)
    appendEscaped(title, to: &out)
    if let account = heading.account {
      out.append(contentsOf: " <span class=\"acct\">".utf8)
      appendEscaped(locale.accountWord, to: &out)
      out.append(contentsOf: " <span class=\"id\" title=\"".utf8)
      appendEscaped(account, to: &out)
      out.append(contentsOf: "\">".utf8)
      appendEscaped(account, to: &out)
      out.append(contentsOf: "</span></span>".utf8)
    }
    out.append(contentsOf: "</h1>\n".utf8)
    if heading.source != nil || heading.period != nil {
      out.append(contentsOf: "<p class=\"sub\">".utf8)
      if let source = heading.source {
        out.append(contentsOf: "<span class=\"id src\" title=\"".utf8)
        appendEscaped(source, to: &out)
        out.append(contentsOf: "\">".utf8)
        appendEscaped(source, to: &out)
        out.append(contentsOf: "</span>".utf8)
      }
      if let period = heading.period {
        if heading.source != nil { out.append(contentsOf: " <span aria-hidden=\"true\">·</span> ".utf8) }
        out.append(contentsOf: "<span class=\"period\">".utf8)
        appendTime(period.first, locale: locale, to: &out)
        if period.last != period.first {
          out.append(contentsOf: " – ".utf8)
          appendTime(period.last, locale: locale, to: &out)
        }
        out.append(contentsOf: "</span>".utf8)
      }
      out.append(contentsOf: "</p>\n".utf8)
    }
    if let subtitle {
      out.append(contentsOf: "<p class=\"sub\">".utf8)
      appendEscaped(subtitle, to: &out)
      out.append(contentsOf: "</p>\n".utf8)
    }
    out.append(contentsOf: "</header>\n".utf8)
    out.append(contentsOf: patterns.utf8)
    out.append(contentsOf: "<main>\n".utf8)
  }

  /// The first and last day of `sections`' groups (nil when there are none).
  static func period(of sections: [ReportSection]) -> (first: CalendarDay, last: CalendarDay)? {
    var first: CalendarDay?
    var last: CalendarDay?
    for section in sections {
      for group in section.groups {
        if first.map({ group.date < $0 }) ?? true { first = group.date }
        if last.map({ group.date > $0 }) ?? true { last = group.date }
      }
    }
    guard let first, let last else { return nil }
    return (first, last)
  }

  /// The hatch pattern of expense bars, defined once for every chart on the page.
  private static let patterns = """
    <svg class="defs" width="0" height="0" aria-hidden="true" focusable="false">\
    <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
    <rect class="hatch-bg" width="6" height="6"/><line class="hatch-line" x1="0" y1="0" x2="0" y2="6"/>\
    </pattern></svg>

    """

  /// Closes what `begin` opened.
  static func end(to out: inout [UInt8]) {
    out.append(contentsOf: "</main>\n</body>\n</html>\n".utf8)
  }

  /// Opens an account's section on a per-account page: `<section class="account">`
  /// and its `h2`, the account's id (escaped) and `count` transactions. `index`
  /// (the accounts written before) makes the section's ids unique: `account-0`,
  /// `account-1`…; the caller closes the section.
  static func beginAccount(_ account: String, count: Int, index: Int, locale: ReportLocale, to out: inout [UInt8]) {
    let id = "account-\(index)"
    out.append(contentsOf: "<section class=\"account\" aria-labelledby=\"\(id)\">\n<h2 id=\"\(id)\">".utf8)
    appendEscaped(locale.accountWord, to: &out)
    out.append(.space)
    appendID(account, to: &out)
    out.append(contentsOf: " <span class=\"count\">".utf8)
    locale.appendCounted(count, singular: locale.transactionSingular, plural: locale.transactionPlural, to: &out)
    out.append(contentsOf: "</span></h2>\n".utf8)
  }

  /// Ends a per-account page after its `accounts` sections: "no transactions"
  /// when there were none, the run's accounting (with the number of accounts
  /// unless `stats` has it), and what `begin` opened.
  static func endAccounts(stats: RunStats, accounts: Int, locale: ReportLocale, to out: inout [UInt8]) {
    if accounts == 0 {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.emptyAccounts(stats).utf8)
      out.append(contentsOf: "</p>\n".utf8)
    }
    var stats = stats
    if stats.accounts == nil { stats.accounts = accounts }
    appendAccounting(stats, locale: locale, to: &out)
    end(to: &out)
  }

  /// The run's accounting: lines, accepted, rejected (with the count per
  /// reason code), duplicates.
  static func appendAccounting(_ stats: RunStats, locale: ReportLocale, to out: inout [UInt8]) {
    let words = locale.htmlWords
    out.append(contentsOf: "<section class=\"stats\" aria-labelledby=\"stats-h\">\n<h2 id=\"stats-h\">".utf8)
    out.append(contentsOf: words.accounting.utf8)
    out.append(contentsOf: "</h2>\n<dl>\n".utf8)
    var items: [(String, Int, String)] = [
      (locale.linesWord, stats.lines, "lines"), (locale.acceptedWord, stats.accepted, "accepted"),
      (locale.rejectedWord, stats.rejected, "rejected"), (locale.duplicatesWord, stats.duplicates, "duplicates"),
    ]
    if let selected = stats.selected { items.append((locale.selectedWord, selected, "selected")) }
    if let accounts = stats.accounts { items.append((locale.accountsWord, accounts, "accounts")) }
    if let changed = stats.changedAccounts { items.append((locale.changedWord, changed, "changed")) }
    for (word, value, name) in items {
      out.append(contentsOf: "<div class=\"stat ".utf8)
      out.append(contentsOf: name.utf8)
      if name == "rejected" && value > 0 { out.append(contentsOf: " some".utf8) }
      out.append(contentsOf: "\"><dt>".utf8)
      out.append(contentsOf: capitalized(word).utf8)
      out.append(contentsOf: "</dt><dd>".utf8)
      locale.appendInteger(value, to: &out)
      out.append(contentsOf: "</dd></div>\n".utf8)
    }
    out.append(contentsOf: "</dl>\n".utf8)
    let reasons = stats.rejectedByReason.filter { $0.value > 0 }.sorted { $0.key < $1.key }
    if !reasons.isEmpty {
      out.append(contentsOf: "<ul class=\"reasons\">\n".utf8)
      for (reason, count) in reasons {
        out.append(contentsOf: "<li><code>".utf8)
        out.append(contentsOf: reason.code.utf8)
        out.append(contentsOf: "</code> ".utf8)
        locale.appendInteger(count, to: &out)
        out.append(contentsOf: "</li>\n".utf8)
      }
      out.append(contentsOf: "</ul>\n".utf8)
    }
    out.append(contentsOf: "</section>\n".utf8)
  }

  /// Which way an amount goes, shown as its sign and its colour class.
  enum Direction {
    /// Money in: `+`, class `in`.
    case income
    /// Money out: `-`, class `out`.
    case expense
    /// Neither (a zero sum): no sign, class `zero`.
    case none

    /// The CSS class of the amount's colour.
    var cssClass: String {
      switch self {
      case .income: return "in"
      case .expense: return "out"
      case .none: return "zero"
      }
    }

    /// The direction of a signed amount.
    init(signed amount: ExactDecimal) {
      self = amount.isZero ? .none : (amount.isNegative ? .expense : .income)
    }

    /// The direction of a group member or total: its magnitude goes the way
    /// of the indicator, unless the amount was written negative (then the
    /// other way, as the text report shows it).
    init(magnitude amount: ExactDecimal, debit: Bool) {
      if amount.isZero {
        self = .none
      } else {
        self = (debit != amount.isNegative) ? .expense : .income
      }
    }
  }

  /// Opens a table cell that names its column in `data-label`, which a
  /// phone's narrow layout shows in place of the hidden headings:
  /// `<td class="num" data-label="Count">`. `label` is one of the fixed words,
  /// written as it is.
  static func openCell(class cssClass: String, label: String, to out: inout [UInt8]) {
    out.append(contentsOf: "<td class=\"".utf8)
    out.append(contentsOf: cssClass.utf8)
    out.append(contentsOf: "\" data-label=\"".utf8)
    out.append(contentsOf: label.utf8)
    out.append(contentsOf: "\">".utf8)
  }

  /// Appends `<span class="amt out">-€1,234.50</span>`: the amount as the
  /// text report writes money in the locale (`ReportLocale.formatMoney`:
  /// padded to the currency's minor units, its symbol placed as the
  /// language does, `-1.234,50 €` in German), with the sign of `direction`
  /// (`+` income, `-` expense, none for zero) instead of its own, escaped.
  ///
  /// Works on the formatted text rather than negating the value, so no
  /// amount, however large, can overflow here.
  static func appendMoney(
    _ amount: ExactDecimal, currency: String, direction: Direction, locale: ReportLocale, to out: inout [UInt8]
  ) {
    out.append(contentsOf: "<span class=\"amt ".utf8)
    out.append(contentsOf: direction.cssClass.utf8)
    out.append(contentsOf: "\">".utf8)
    appendMoneyText(amount, currency: currency, direction: direction, locale: locale, to: &out)
    out.append(contentsOf: "</span>".utf8)
  }

  /// The text of `appendMoney` without the element (for titles and tables).
  static func appendMoneyText(
    _ amount: ExactDecimal, currency: String, direction: Direction, locale: ReportLocale, to out: inout [UInt8]
  ) {
    let sign: UInt8?
    switch direction {
    case .income: sign = .plus
    case .expense: sign = .minus
    case .none: sign = nil
    }
    let text = locale.moneyText(magnitudeOf: amount, currency: currency, sign: sign)
    appendEscaped(String(decoding: text.bytes, as: UTF8.self), to: &out)
  }

  /// Appends `text` escaped for HTML text and attribute values: `&`, `<`,
  /// `>`, `"` and `'` as character references; tab, CR and LF as a space;
  /// other control characters and the characters that print nothing
  /// (bidirectional controls, zero-width and other format characters,
  /// `Unicode.Scalar.isHiddenFromDisplay`) as U+FFFD, so input can neither
  /// add markup, reorder the page's text nor make two texts look alike.
  static func appendEscaped(_ text: String, to out: inout [UInt8]) {
    let plain = text.utf8.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
        && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }
    if plain {
      out.append(contentsOf: text.utf8)
      return
    }
    text.forEachShownScalar { scalar, shown in
      switch scalar.value {
      case 0x26: out.append(contentsOf: "&amp;".utf8)
      case 0x3C: out.append(contentsOf: "&lt;".utf8)
      case 0x3E: out.append(contentsOf: "&gt;".utf8)
      case 0x22: out.append(contentsOf: "&quot;".utf8)
      case 0x27: out.append(contentsOf: "&#39;".utf8)
      case 0x09, 0x0A, 0x0D: out.append(.space)
      case _ where !shown: out.append(contentsOf: replacementCharacter)
      default: UTF8.encode(scalar) { out.append($0) }
      }
    }
  }

  /// A description from the input, escaped, with a line-break opportunity
  /// (`<wbr>`) after each `/`: a URL (`https://www.bol.com/order/88120417`)
  /// then wraps at its slashes instead of inside its digits, since
  /// `overflow-wrap:anywhere` (which a 300-letter word needs) would otherwise
  /// cut it wherever the line ends.
  static func appendBreakable(_ text: String, to out: inout [UInt8]) {
    guard text.utf8.contains(UInt8(ascii: "/")) else {
      appendEscaped(text, to: &out)
      return
    }
    var first = true
    for part in text.split(separator: "/", omittingEmptySubsequences: false) {
      if !first { out.append(contentsOf: "/<wbr>".utf8) }
      first = false
      appendEscaped(String(part), to: &out)
    }
  }

  /// An identifier from the input (an account or transaction id): `<span class="id" title="…">…</span>`.
  /// An id is one token: it never wraps; one too long for its line is cut
  /// with `…` on screen and shown whole in the tooltip (and to screen readers).
  static func appendID(_ id: String, to out: inout [UInt8]) {
    out.append(contentsOf: "<span class=\"id\" title=\"".utf8)
    appendEscaped(id, to: &out)
    out.append(contentsOf: "\">".utf8)
    appendEscaped(id, to: &out)
    out.append(contentsOf: "</span>".utf8)
  }

  /// The `datetime` attribute's value and the long date: `<time datetime="2019-05-17">May 17, 2019</time>`.
  static func appendTime(_ day: CalendarDay, locale: ReportLocale, to out: inout [UInt8]) {
    out.append(contentsOf: "<time datetime=\"".utf8)
    day.appendText(to: &out)
    out.append(contentsOf: "\">".utf8)
    locale.appendLongDate(day, to: &out)
    out.append(contentsOf: "</time>".utf8)
  }

  /// `Lines` from `lines`: the accounting words start lower case mid-sentence in the text report.
  private static func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst()
  }

  /// The inline style sheet (see the type's notes).
  static let styleSheet = """
    :root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;\
    --in:#0b5cad;--out:#a33c00;--in-bg:#e3efff;--out-bg:#fff0e5;--warn:#8a4b00}
    @media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#1a1f26;--fg:#e6e9ee;--muted:#a3acb9;\
    --line:#3a4350;--in:#79b8ff;--out:#ffa463;--in-bg:#15293f;--out-bg:#3a2211;--warn:#f0b45c}}
    *{box-sizing:border-box}
    svg.defs{position:absolute;width:0;height:0;overflow:hidden}
    .vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
    html{-webkit-text-size-adjust:100%}
    h1,h2,h3,h4,p,li,dd,td,th,figcaption,summary{overflow-wrap:break-word}
    body{margin:0;background:var(--bg);color:var(--fg);\
    font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
    header.page,main{max-width:72rem;margin:0 auto;padding:0 1rem}
    header.page{padding-top:1.25rem}
    h1{font-size:1.5rem;margin:0 0 .25rem}
    h2{font-size:1.15rem;margin:1.5rem 0 .75rem}
    h3,h4{font-size:1rem;margin:0}
    .account>h2{border-bottom:1px solid var(--line);padding-bottom:.25rem}
    h3.state{font-size:1.05rem;margin:1rem 0 .5rem}
    .sub{margin:0;color:var(--muted)}.period,time{white-space:nowrap}
    .id{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
    h1 .acct{display:block;font-size:1.1rem}
    .amt{white-space:nowrap;font-variant-numeric:tabular-nums;font-weight:600}
    .amt.in{color:var(--in)}.amt.out{color:var(--out)}.amt.zero{color:var(--muted)}
    .stats dl{display:flex;flex-wrap:wrap;gap:.5rem;margin:0}
    .stats{margin-bottom:1rem}
    .stat{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.35rem .6rem;flex:1 1 4.5rem;max-width:9rem}
    .stat dt{font-size:.8rem;color:var(--muted)}.stat dd{margin:0;font-size:1.2rem;font-weight:600;white-space:nowrap}
    .stat.rejected.some{border-color:var(--warn);border-width:2px}.stat.rejected.some dd{color:var(--warn)}
    .reasons{margin:.5rem 0 0;padding-left:1.25rem}
    .cards{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr))}
    .card{background:var(--card);border:1px solid var(--line);border-left:.35rem solid var(--in);\
    border-radius:.5rem;padding:.75rem .9rem;min-width:0}
    .card.out{border-left:.35rem dashed var(--out)}
    .card header{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:.1rem .75rem;align-items:baseline}
    .card header .ind{grid-column:2;grid-row:1;justify-self:end}.card header .count{grid-column:1/-1}
    .ind{font-size:.85rem;font-weight:600;border-radius:1rem;padding:0 .5rem;white-space:nowrap}
    .ind.in{color:var(--in);background:var(--in-bg)}.ind.out{color:var(--out);background:var(--out-bg)}
    .count,.more,.note{color:var(--muted);font-size:.9rem}
    .total{margin:.4rem 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;justify-content:flex-end}
    .total>span:first-child{margin-right:auto}
    .total .amt{font-size:1.15rem}
    .members{list-style:none;margin:0;padding:0;border-top:1px solid var(--line)}
    .members li{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:0 .75rem;\
    padding:.3rem 0;border-bottom:1px solid var(--line)}.members .amt{margin-left:auto;text-align:right}
    .members li>:first-child,.list .desc,td.wide,th.wide{overflow-wrap:anywhere;min-width:0}
    .members li>:first-child{flex:1 1 8rem}
    .members .amt,.total .amt,.sums .amt{max-width:100%;overflow-x:auto;overflow-y:hidden}
    .more{margin:.4rem 0 0}
    .charts{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr))}
    .charts figure:first-child{grid-column:1/-1}
    figure{margin:0;min-width:0;background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.75rem}
    figcaption{font-weight:600;margin-bottom:.5rem}
    svg.chart{display:block;width:100%;height:9rem}
    .charts figure+figure svg.chart{height:6rem}
    .axis{display:flex;justify-content:space-between;gap:1rem;color:var(--muted);font-size:.8rem;margin-top:.25rem}
    .legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.85rem;margin:.5rem 0}
    .key{display:inline-block;width:1.6em;height:.8em;vertical-align:middle;margin-right:.3em;border:1px solid var(--fg)}
    .key.in{background:var(--in)}
    .key.out{background:repeating-linear-gradient(135deg,var(--out) 0 3px,var(--card) 3px 5px)}
    rect.in{fill:var(--in)}rect.out{fill:url(#hatch);stroke:var(--out);stroke-width:1}.hatch-bg{fill:var(--out)}.hatch-line{stroke:var(--card);stroke-width:1.5}
    line.zero{stroke:var(--fg);stroke-width:1}
    details{margin-top:.5rem}summary{cursor:pointer;color:var(--muted)}
    table{border-collapse:collapse;width:100%;background:var(--card)}
    th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
    th{font-weight:600}td.num,th.num{text-align:right}
    .tag{font-size:.75rem;border:1px solid var(--muted);border-radius:.25rem;padding:0 .3rem;margin-left:.3rem;\
    color:var(--muted);display:inline-block}
    tr.latest,tr.latest td{background:var(--in-bg)}td.cat{color:var(--muted)}
    .fee{display:block;color:var(--muted);font-size:.85rem}
    .sums{margin:1rem 0}.sums p{margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
    td.bar{width:35%;min-width:6rem}td.bar svg{display:block;width:100%;height:1.6rem}
    tr.cont th,tr.cont td{border-top:0}
    tfoot th,tfoot td{font-weight:600}tfoot tr:first-child>*{border-top:2px solid var(--line)}
    .empty{font-style:italic;color:var(--muted)}
    nav.months{margin:.5rem 0}nav.months dl{margin:.25rem 0}nav.months dd{margin:0 0 .4rem}\
    nav.months ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.15rem .9rem}\
    nav.months li{white-space:nowrap}.card:target{outline:2px solid var(--in)}
    table.index .id-cell{max-width:16rem}table.index .id{max-width:100%}nav.sort{margin:.5rem 0}\
    table.index td.sums .amt{display:inline-block;max-width:18rem;overflow-x:auto;overflow-y:hidden;vertical-align:top}\
    nav.sort a[aria-current]{font-weight:600;color:var(--fg)}
    @media (max-width:40rem){body{font-size:14px}header.page,main{padding:0 .6rem}\
    table.rows thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}\
    table.rows,table.rows tbody,table.rows tfoot{display:block}\
    table.rows tr{display:flex;flex-wrap:wrap;gap:.1rem .75rem;padding:.4rem .5rem;\
    border-bottom:1px solid var(--line)}\
    table.rows td,table.rows th{border:0;padding:0;text-align:left}table.rows .wide{flex-basis:100%}\
    table.rows td.num{text-align:right}table.list td.num{order:1;margin-left:auto}table.list .wide{order:2}\
    table.rows td.num .amt{display:inline-block;max-width:calc(100vw - 3rem);overflow-x:auto;overflow-y:hidden;\
    vertical-align:top}table.summary td.num{flex:1 1 6rem}\
    table.summary td.num:first-of-type{flex:0 0 4rem}table.summary .wide{flex-basis:100%}\
    table.summary td.num{text-align:left}table.rows td[data-label]::before{content:attr(data-label);\
    display:block;color:var(--muted);font-weight:400;font-size:.8rem}td.bar{width:auto}\
    table.index tr{display:flex;flex-wrap:wrap;gap:.1rem .75rem}table.index th.wide,table.index td.sums{flex-basis:100%;max-width:none}\
    table.index td.num{text-align:left}table.index td.sums:empty{display:none}}
    @media print{:root{--bg:#fff;--card:#fff;--fg:#000;--muted:#333;--line:#999;--in:#003f8a;--out:#8a2f00;\
    --in-bg:#fff;--out-bg:#fff;--warn:#000}body{font-size:11pt}header.page,main{max-width:none}\
    .card,figure,tr{break-inside:avoid}details{display:none}}

    """
}
