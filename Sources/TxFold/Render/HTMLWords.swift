/// The fixed words the `html` reports add to the text reports' words, per
/// language (`ReportLocale.htmlWords` is the locale's set).
struct HTMLWords: Sendable, Hashable {
  /// The page title of `group` and `merge`.
  let groupTitle: String
  /// The page title of `list`.
  let listTitle: String
  /// The heading of the run's accounting.
  let accounting: String
  /// The chart's caption when it has one bar pair per day, and per month.
  let perDay: String
  let perMonth: String
  /// The chart's description for readers who cannot see it.
  let chartDescription: String
  /// The summary of the `<details>` element that shows the chart's figures.
  let showFigures: String
  /// Said instead of a chart whose sums do not fit in 128 bits.
  let tooLargeToChart: String
  /// The summary's note on how its bars are scaled.
  let scaledPerCurrency: String
  /// List column headings.
  let description: String
  let amount: String
  /// The month index's label.
  var months: String = "Months"
  /// The title of the per-account index (`--output-dir`), the link back to it, and its words.
  var accountsTitle: String = "Accounts"
  var allAccounts: String = "All accounts"
  var period: String = "Period"
  var sortBy: String = "Sort by"

  static let english = HTMLWords(
    groupTitle: "Grouped transactions", listTitle: "Transactions", accounting: "Records read",
    perDay: "Income and expense per day", perMonth: "Income and expense per month",
    chartDescription: "Income above the axis (solid bars), expense below it (hatched bars).",
    showFigures: "Show the figures", tooLargeToChart: "Sums too large to chart.",
    scaledPerCurrency: "Bars are scaled per currency: the longest bar is the largest amount in its currency.",
    description: "Description", amount: "Amount", months: "Months", accountsTitle: "Accounts",
    allAccounts: "All accounts", period: "Period",
    sortBy: "Sort by")

  static let french = HTMLWords(
    groupTitle: "Opérations groupées", listTitle: "Opérations", accounting: "Enregistrements lus",
    perDay: "Revenus et dépenses par jour", perMonth: "Revenus et dépenses par mois",
    chartDescription: "Revenus au-dessus de l’axe (barres pleines), dépenses en dessous (barres hachurées).",
    showFigures: "Voir les chiffres", tooLargeToChart: "Sommes trop grandes pour le graphique.",
    scaledPerCurrency: "Barres à l’échelle de chaque devise : la plus longue est le plus grand montant de sa devise.",
    description: "Libellé", amount: "Montant", months: "Mois", accountsTitle: "Comptes",
    allAccounts: "Tous les comptes", period: "Période",
    sortBy: "Trier par")

  static let german = HTMLWords(
    groupTitle: "Gruppierte Buchungen", listTitle: "Buchungen", accounting: "Gelesene Datensätze",
    perDay: "Einnahmen und Ausgaben pro Tag", perMonth: "Einnahmen und Ausgaben pro Monat",
    chartDescription: "Einnahmen über der Achse (volle Balken), Ausgaben darunter (schraffierte Balken).",
    showFigures: "Zahlen anzeigen", tooLargeToChart: "Summen zu groß für das Diagramm.",
    scaledPerCurrency: "Balken je Währung skaliert: der längste ist der größte Betrag seiner Währung.",
    description: "Beschreibung", amount: "Betrag", months: "Monate", accountsTitle: "Konten",
    allAccounts: "Alle Konten", period: "Zeitraum",
    sortBy: "Sortieren nach")

  static let dutch = HTMLWords(
    groupTitle: "Gegroepeerde transacties", listTitle: "Transacties", accounting: "Gelezen records",
    perDay: "Inkomsten en uitgaven per dag", perMonth: "Inkomsten en uitgaven per maand",
    chartDescription: "Inkomsten boven de as (volle balken), uitgaven eronder (gearceerde balken).",
    showFigures: "Cijfers tonen", tooLargeToChart: "Sommen te groot voor de grafiek.",
    scaledPerCurrency: "Balken geschaald per valuta: de langste is het grootste bedrag in die valuta.",
    description: "Omschrijving", amount: "Bedrag", months: "Maanden", accountsTitle: "Rekeningen",
    allAccounts: "Alle rekeningen", period: "Periode",
    sortBy: "Sorteren op")

  static let spanish = HTMLWords(
    groupTitle: "Movimientos agrupados", listTitle: "Movimientos", accounting: "Registros leídos",
    perDay: "Ingresos y gastos por día", perMonth: "Ingresos y gastos por mes",
    chartDescription: "Ingresos sobre el eje (barras llenas), gastos debajo (barras rayadas).",
    showFigures: "Ver las cifras", tooLargeToChart: "Sumas demasiado grandes para el gráfico.",
    scaledPerCurrency: "Barras a escala por moneda: la más larga es el mayor importe de su moneda.",
    description: "Concepto", amount: "Importe", months: "Meses", accountsTitle: "Cuentas",
    allAccounts: "Todas las cuentas", period: "Periodo",
    sortBy: "Ordenar por")
}
