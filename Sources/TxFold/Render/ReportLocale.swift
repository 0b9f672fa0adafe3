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
  /// What a `--changed-only` report says when no account changed (its accounts had transactions).
  let noChangedAccounts: String
  /// The `list` and `summary` words.
  let queryWords: QueryWords
  /// The `html` words.
  let htmlWords: HTMLWords

  // MARK: Built-in languages

  // Each language is one value of every word set (its `queryWords` and
  // `htmlWords` are the sets of the same name); with no initializer in the
  // struct's body, the memberwise one builds them.

  /// English: `1,919.95`, `May 17, 2019`. The default.
  public static let english = ReportLocale(
    identifier: "en", decimalSeparator: UInt8(ascii: "."), groupingSeparator: Array(",".utf8),
    minimumGroupingDigits: 1,
    monthNames: [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December",
    ],
    longDatePattern: .monthDayCommaYear,
    pendingTitle: "PENDING", completedTitle: "COMPLETED",
    groupSingular: "group", groupPlural: "groups",
    transactionSingular: "transaction", transactionPlural: "transactions",
    creditWord: "Credit", debitWord: "Debit", totalWord: "Total",
    linesWord: "Lines", acceptedWord: "accepted", rejectedWord: "rejected", duplicatesWord: "duplicates",
    morePrefix: "… and ", moreSuffix: " more", noTransactions: "No transactions.", zeroIsSingular: false,
    accountWord: "Account", selectedWord: "selected", accountsWord: "accounts", changedWord: "changed",
    noChangedAccounts: "No account changed tonight.",
    queryWords: .english, htmlWords: .english)

  /// French: `1 919,95` (U+202F between groups), `17 mai 2019`.
  public static let french = ReportLocale(
    identifier: "fr", decimalSeparator: UInt8(ascii: ","), groupingSeparator: Array("\u{202F}".utf8),
    minimumGroupingDigits: 1,
    monthNames: [
      "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
      "novembre", "décembre",
    ],
    longDatePattern: .dayMonthYear,
    pendingTitle: "EN ATTENTE", completedTitle: "EFFECTUÉES",
    groupSingular: "groupe", groupPlural: "groupes",
    transactionSingular: "opération", transactionPlural: "opérations",
    creditWord: "Crédit", debitWord: "Débit", totalWord: "Total",
    linesWord: "Lignes", acceptedWord: "acceptées", rejectedWord: "rejetées", duplicatesWord: "doublons",
    morePrefix: "… et ", moreSuffix: " de plus", noTransactions: "Aucune opération.", zeroIsSingular: true,
    accountWord: "Compte", selectedWord: "sélectionnées", accountsWord: "comptes", changedWord: "modifiés",
    noChangedAccounts: "Aucun compte n’a changé cette nuit.",
    queryWords: .french, htmlWords: .french)

  /// German: `1.919,95`, `17. Mai 2019`.
  public static let german = ReportLocale(
    identifier: "de", decimalSeparator: UInt8(ascii: ","), groupingSeparator: Array(".".utf8),
    minimumGroupingDigits: 1,
    monthNames: [
      "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
      "November", "Dezember",
    ],
    longDatePattern: .dayDotMonthYear,
    pendingTitle: "AUSSTEHEND", completedTitle: "ABGESCHLOSSEN",
    groupSingular: "Gruppe", groupPlural: "Gruppen",
    transactionSingular: "Buchung", transactionPlural: "Buchungen",
    creditWord: "Gutschrift", debitWord: "Belastung", totalWord: "Summe",
    linesWord: "Zeilen", acceptedWord: "angenommen", rejectedWord: "abgelehnt", duplicatesWord: "Duplikate",
    morePrefix: "… und ", moreSuffix: " weitere", noTransactions: "Keine Buchungen.", zeroIsSingular: false,
    accountWord: "Konto", selectedWord: "ausgewählt", accountsWord: "Konten", changedWord: "geändert",
    noChangedAccounts: "Kein Konto hat sich heute Nacht geändert.",
    queryWords: .german, htmlWords: .german)

  /// Dutch: `1.919,95`, `17 mei 2019`.
  public static let dutch = ReportLocale(
    identifier: "nl", decimalSeparator: UInt8(ascii: ","), groupingSeparator: Array(".".utf8),
    minimumGroupingDigits: 1,
    monthNames: [
      "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
      "november", "december",
    ],
    longDatePattern: .dayMonthYear,
    pendingTitle: "IN BEHANDELING", completedTitle: "VOLTOOID",
    groupSingular: "groep", groupPlural: "groepen",
    transactionSingular: "transactie", transactionPlural: "transacties",
    creditWord: "Bijschrijving", debitWord: "Afschrijving", totalWord: "Totaal",
    linesWord: "Regels", acceptedWord: "geaccepteerd", rejectedWord: "afgewezen", duplicatesWord: "dubbel",
    morePrefix: "… en nog ", moreSuffix: "", noTransactions: "Geen transacties.", zeroIsSingular: false,
    accountWord: "Rekening", selectedWord: "geselecteerd", accountsWord: "rekeningen", changedWord: "gewijzigd",
    noChangedAccounts: "Geen rekening is vannacht gewijzigd.",
    queryWords: .dutch, htmlWords: .dutch)

  /// Spanish: `1919,95` but `19.919,95` (CLDR minimum grouping digits 2),
  /// `17 de mayo de 2019`.
  public static let spanish = ReportLocale(
    identifier: "es", decimalSeparator: UInt8(ascii: ","), groupingSeparator: Array(".".utf8),
    minimumGroupingDigits: 2,
    monthNames: [
      "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
      "noviembre", "diciembre",
    ],
    longDatePattern: .dayDeMonthDeYear,
    pendingTitle: "PENDIENTES", completedTitle: "COMPLETADAS",
    groupSingular: "grupo", groupPlural: "grupos",
    transactionSingular: "movimiento", transactionPlural: "movimientos",
    creditWord: "Abono", debitWord: "Cargo", totalWord: "Total",
    linesWord: "Líneas", acceptedWord: "aceptadas", rejectedWord: "rechazadas", duplicatesWord: "duplicadas",
    morePrefix: "… y ", moreSuffix: " más", noTransactions: "No hay movimientos.", zeroIsSingular: false,
    accountWord: "Cuenta", selectedWord: "seleccionadas", accountsWord: "cuentas", changedWord: "modificadas",
    noChangedAccounts: "Ninguna cuenta ha cambiado esta noche.",
    queryWords: .spanish, htmlWords: .spanish)

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

  /// What a per-account report with no account says: that none changed tonight when
  /// `--changed-only` left every one out (`stats.changedAccounts`), else that there were no transactions.
  func emptyAccounts(_ stats: RunStats) -> String {
    stats.changedAccounts != nil && (stats.accounts ?? 0) > 0 ? noChangedAccounts : noTransactions
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

extension ReportLocale {
  /// Selects a built-in language from a locale identifier.
  ///
  /// Only the language part counts, case-insensitively: `fr`, `fr_FR`,
  /// `fr-FR`, `FR` and `fr_FR.UTF-8` are all French; `C` and `POSIX` are
  /// English. Returns `nil` for any other language.
  public init?(identifier: String) {
    var language = ""
    for scalar in identifier.unicodeScalars {
      if scalar == "_" || scalar == "-" || scalar == "." || scalar == "@" { break }
      language.unicodeScalars.append(scalar)
    }
    switch language.lowercased() {
    case "en", "c", "posix": self = .english
    case "fr": self = .french
    case "de": self = .german
    case "nl": self = .dutch
    case "es": self = .spanish
    default: return nil
    }
  }
}
