/// The language of the `text` report: number format, long dates and fixed words.
///
/// Five languages are built in, with CLDR's number symbols and long date
/// patterns (no Foundation, so output is identical on every platform):
///
/// | id | number       | long date            |
/// |----|--------------|----------------------|
/// | en | `19,919.95`  | `May 17, 2019`       |
/// | fr | `19 919,95`  | `17 mai 2019`        |
/// | de | `19.919,95`  | `17. Mai 2019`       |
/// | nl | `19.919,95`  | `17 mei 2019`        |
/// | es | `19.919,95`  | `17 de mayo de 2019` |
///
/// French groups with U+202F NARROW NO-BREAK SPACE. Spanish uses CLDR's
/// `minimumGroupingDigits` 2: a four-digit integer part is not grouped
/// (`1919,95`), a five-digit one is (`19.919,95`). Negative numbers use the
/// ASCII hyphen-minus, which is CLDR's minus sign for all five languages and
/// survives copying into a spreadsheet.
///
/// Only the language matters: `fr_FR`, `fr-CA` and `fr_FR.UTF-8` all select
/// French. `C` and `POSIX` select English.
public struct ReportLocale: Sendable, Hashable {
  /// The language code this locale was built for (`en`, `fr`, `de`, `nl`, `es`).
  public let identifier: String

  /// The language codes `init(identifier:)` accepts, in a stable order.
  public static let supportedIdentifiers = ["en", "fr", "de", "nl", "es"]

  // MARK: Number and date format

  /// The byte between integer and fraction digits.
  let decimalSeparator: UInt8
  /// The UTF-8 bytes between groups of three integer digits.
  let groupingSeparator: [UInt8]
  /// CLDR `minimumGroupingDigits`: group only when the integer part has at
  /// least `3 + minimumGroupingDigits` digits.
  let minimumGroupingDigits: Int
  /// Month names as used in a long date, January first.
  let monthNames: [String]
  /// How the day, month name and year are arranged.
  let longDatePattern: LongDatePattern

  /// The arrangements of CLDR's long date format used by the built-in languages.
  enum LongDatePattern: Sendable, Hashable {
    /// `MMMM d, y` (English).
    case monthDayCommaYear
    /// `d MMMM y` (French, Dutch).
    case dayMonthYear
    /// `d. MMMM y` (German).
    case dayDotMonthYear
    /// `d 'de' MMMM 'de' y` (Spanish).
    case dayDeMonthDeYear
  }

  // MARK: Words

  // The languages' values are in ReportLocale+Languages.swift; with no
  // initializer declared here, the memberwise one (internal) builds them.

  /// The section title for `PENDING`, as a heading (upper case where the
  /// language has case).
  let pendingTitle: String
  /// The section title for `COMPLETED`.
  let completedTitle: String
  let groupSingular: String
  let groupPlural: String
  let transactionSingular: String
  let transactionPlural: String
  /// The word for `CRDT`.
  let creditWord: String
  /// The word for `DBIT`.
  let debitWord: String
  let totalWord: String
  let linesWord: String
  let acceptedWord: String
  let rejectedWord: String
  let duplicatesWord: String
  /// The text before and after N in the "… and N more" line.
  let morePrefix: String
  let moreSuffix: String
  /// The message printed when the report has no sections.
  let noTransactions: String
  /// True when 0 takes the singular too (French: `0 groupe`).
  let zeroIsSingular: Bool
  /// The word before an account's id in a per-account text report.
  let accountWord: String
  /// The word for the accepted records a selection kept, in the run's accounting.
  let selectedWord: String
  /// The word for the number of accounts in the run's accounting.
  let accountsWord: String
  /// The word for the accounts that changed tonight (`--changed-only`), in the run's accounting.
  let changedWord: String
  /// The `list` and `summary` words.
  let queryWords: QueryWords
  /// The `html` words.
  let htmlWords: HTMLWords

  // MARK: Formatting

  /// The number with this language's separators, e.g. `1 919,95` in French.
  public func formatNumber(_ value: ExactDecimal) -> String {
    var bytes: [UInt8] = []
    appendNumber(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The long date, e.g. `17 de mayo de 2019` in Spanish.
  public func formatLongDate(_ day: CalendarDay) -> String {
    var bytes: [UInt8] = []
    appendLongDate(day, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The heading for a section: the translated title of `PENDING` and
  /// `COMPLETED`, any other state as written.
  public func sectionTitle(forState state: String) -> String {
    switch state {
    case KnownState.pending: return pendingTitle
    case KnownState.completed: return completedTitle
    default: return state
    }
  }

  /// The word for an indicator (`Credit`, `Debit` in English).
  public func word(for indicator: CreditDebitIndicator) -> String {
    indicator == .credit ? creditWord : debitWord
  }

  /// Appends the number with this language's separators.
  func appendNumber(_ value: ExactDecimal, to out: inout [UInt8]) {
    value.appendText(
      to: &out, decimalSeparator: decimalSeparator, groupingSeparator: groupingSeparator,
      minimumGroupingDigits: minimumGroupingDigits)
  }

  /// Appends a count with this language's grouping (`12,345` in English).
  func appendInteger(_ value: Int, to out: inout [UInt8]) {
    appendNumber(ExactDecimal(wide: WideInt(value), scale: 0), to: &out)
  }

  /// Appends `count` followed by the singular or plural noun (`2 groups`).
  func appendCounted(_ count: Int, singular: String, plural: String, to out: inout [UInt8]) {
    appendInteger(count, to: &out)
    out.append(.space)
    let isSingular = count == 1 || (zeroIsSingular && count == 0)
    out.append(contentsOf: (isSingular ? singular : plural).utf8)
  }

  /// Appends the long date of `day`.
  func appendLongDate(_ day: CalendarDay, to out: inout [UInt8]) {
    let (year, month, dayOfMonth) = day.components
    let monthName = monthNames.indices.contains(month - 1) ? monthNames[month - 1] : String(month)
    switch longDatePattern {
    case .monthDayCommaYear:
      out.append(contentsOf: "\(monthName) \(dayOfMonth), \(year)".utf8)
    case .dayMonthYear:
      out.append(contentsOf: "\(dayOfMonth) \(monthName) \(year)".utf8)
    case .dayDotMonthYear:
      out.append(contentsOf: "\(dayOfMonth). \(monthName) \(year)".utf8)
    case .dayDeMonthDeYear:
      out.append(contentsOf: "\(dayOfMonth) de \(monthName) de \(year)".utf8)
    }
  }
}

