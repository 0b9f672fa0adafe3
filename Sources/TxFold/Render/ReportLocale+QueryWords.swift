/// The fixed words of the `list` and `summary` text reports, per language.
///
/// Kept beside `ReportLocale` rather than in it so the group report's words
/// and these can grow independently; `ReportLocale.queryWords` is the set
/// of the locale's language.
struct QueryWords: Sendable, Hashable {
  /// The heading of the block that shows the newest transaction.
  let latest: String
  /// The sum line's label.
  let sum: String
  /// Before a row's total including its fee.
  let totalWithFee: String
  /// The label of the sum line including fees.
  let totalWithFees: String
  /// `Shown 6–8 of 8`.
  let shown: String
  let of: String
  /// Summary column headings.
  let count: String
  let income: String
  let expense: String
  /// The summary's title per dimension, and its key column's heading.
  let titles: [SummaryDimension: String]
  let keyHeadings: [SummaryDimension: String]
  /// How the text summary shows a missing key.
  let noKey: String
  /// How a list row marks a `PENDING` transaction.
  let pending: String
  /// `May 2019`: true puts `de` between month and year (Spanish).
  let monthDeYear: Bool
  /// The summary chart's legend before each currency's full bar.
  let barsPerCurrency: String

  static let english = QueryWords(
    latest: "Latest", sum: "Sum", totalWithFee: "total with fee", totalWithFees: "Total with fees", shown: "Shown",
    of: "of", count: "Count", income: "Income", expense: "Expense",
    titles: [
      .category: "By category", .day: "By day", .week: "By week", .year: "By year", .month: "By month",
      .counterparty: "By counterparty",
      .state: "By state",
    ],
    keyHeadings: [
      .category: "Category", .day: "Day", .week: "Week", .year: "Year", .month: "Month", .counterparty: "Counterparty",
      .state: "State",
    ],
    noKey: "(none)", pending: "pending", monthDeYear: false,
    barsPerCurrency: "Bars scaled per currency, full bar:")

  static let french = QueryWords(
    latest: "Dernière opération", sum: "Somme", totalWithFee: "total avec frais", totalWithFees: "Total avec frais",
    shown: "Affichées", of: "sur", count: "Nombre", income: "Revenus", expense: "Dépenses",
    titles: [
      .category: "Par catégorie", .day: "Par jour", .week: "Par semaine", .year: "Par année", .month: "Par mois",
      .counterparty: "Par contrepartie",
      .state: "Par statut",
    ],
    keyHeadings: [
      .category: "Catégorie", .day: "Jour", .week: "Semaine", .year: "Année", .month: "Mois",
      .counterparty: "Contrepartie", .state: "Statut",
    ],
    noKey: "(aucune)", pending: "en attente", monthDeYear: false,
    barsPerCurrency: "Barres à l’échelle de chaque devise, barre pleine :")

  static let german = QueryWords(
    latest: "Letzte Buchung", sum: "Summe", totalWithFee: "gesamt mit Gebühr", totalWithFees: "Gesamt mit Gebühren",
    shown: "Angezeigt", of: "von", count: "Anzahl", income: "Einnahmen", expense: "Ausgaben",
    titles: [
      .category: "Nach Kategorie", .day: "Nach Tag", .week: "Nach Woche", .year: "Nach Jahr", .month: "Nach Monat",
      .counterparty: "Nach Gegenpartei",
      .state: "Nach Status",
    ],
    keyHeadings: [
      .category: "Kategorie", .day: "Tag", .week: "Woche", .year: "Jahr", .month: "Monat", .counterparty: "Gegenpartei",
      .state: "Status",
    ],
    noKey: "(keine)", pending: "ausstehend", monthDeYear: false,
    barsPerCurrency: "Balken je Währung skaliert, voller Balken:")

  static let dutch = QueryWords(
    latest: "Laatste transactie", sum: "Som", totalWithFee: "totaal met kosten", totalWithFees: "Totaal met kosten",
    shown: "Getoond", of: "van", count: "Aantal", income: "Inkomsten", expense: "Uitgaven",
    titles: [
      .category: "Per categorie", .day: "Per dag", .week: "Per week", .year: "Per jaar", .month: "Per maand",
      .counterparty: "Per tegenpartij",
      .state: "Per status",
    ],
    keyHeadings: [
      .category: "Categorie", .day: "Dag", .week: "Week", .year: "Jaar", .month: "Maand", .counterparty: "Tegenpartij",
      .state: "Status",
    ],
    noKey: "(geen)", pending: "in behandeling", monthDeYear: false,
    barsPerCurrency: "Balken per valuta geschaald, volle balk:")

  static let spanish = QueryWords(
    latest: "Último movimiento", sum: "Suma", totalWithFee: "total con comisión", totalWithFees: "Total con comisiones",
    shown: "Mostrados", of: "de", count: "Número", income: "Ingresos", expense: "Gastos",
    titles: [
      .category: "Por categoría", .day: "Por día", .week: "Por semana", .year: "Por año", .month: "Por mes",
      .counterparty: "Por contraparte",
      .state: "Por estado",
    ],
    keyHeadings: [
      .category: "Categoría", .day: "Día", .week: "Semana", .year: "Año", .month: "Mes", .counterparty: "Contraparte",
      .state: "Estado",
    ],
    noKey: "(ninguna)", pending: "pendiente", monthDeYear: true,
    barsPerCurrency: "Barras a escala de cada moneda, barra completa:")
}

extension ReportLocale {
  /// A list's footer count, `Shown 11–20 of 57` (`Shown 0 of 57` past the
  /// last page), one wording for the text and the html list.
  func appendShownCount(_ shown: Int, of context: ListContext, to out: inout [UInt8]) {
    let words = queryWords
    out.append(contentsOf: words.shown.utf8)
    out.append(.space)
    if shown > 0 {
      appendInteger(context.page.offset + 1, to: &out)
      out.append(contentsOf: "–".utf8)
      appendInteger(context.page.offset + shown, to: &out)
    } else {
      appendInteger(0, to: &out)
    }
    out.append(.space)
    out.append(contentsOf: words.of.utf8)
    out.append(.space)
    appendInteger(context.matched, to: &out)
  }

  /// Appends a month of a year: `May 2019`, `mai 2019`, `mayo de 2019`.
  func appendMonthYear(year: Int, month: Int, to out: inout [UInt8]) {
    let name = monthNames.indices.contains(month - 1) ? monthNames[month - 1] : String(month)
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: (queryWords.monthDeYear ? " de " : " ").utf8)
    out.append(contentsOf: String(year).utf8)
  }

  /// The widest long date of this language (day 28 of every month of a
  /// four-digit year), in terminal columns: the width of a list's date column.
  var longDateColumnWidth: Int {
    var widest = 0
    for month in 1...12 {
      var bytes: [UInt8] = []
      appendLongDate(CalendarDay(year: 2000, month: month, day: 28), to: &bytes)
      widest = max(widest, TerminalColumns.width(of: bytes))
    }
    return widest
  }
}
