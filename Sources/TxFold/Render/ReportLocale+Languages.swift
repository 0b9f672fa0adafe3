// The built-in languages, each in one place: its number and date format and
// every fixed word the reports use — the text reports' (`ReportLocale`'s own),
// `list` and `summary`'s (`QueryWords`) and the `html` pages' (`HTMLWords`).
// A new language is one more value here and one more case in
// `init?(identifier:)`.

extension ReportLocale {
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
    queryWords: QueryWords(
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
      barsPerCurrency: "Bars scaled per currency, full bar:"),
    htmlWords: HTMLWords(
      groupTitle: "Grouped transactions", listTitle: "Transactions", accounting: "Records read",
      perDay: "Income and expense per day", perMonth: "Income and expense per month",
      chartDescription: "Income above the axis (solid bars), expense below it (hatched bars).",
      showFigures: "Show the figures", tooLargeToChart: "Sums too large to chart.",
      scaledPerCurrency: "Bars are scaled per currency: the longest bar is the largest amount in its currency.",
      description: "Description", amount: "Amount", months: "Months", accountsTitle: "Accounts",
      allAccounts: "All accounts", period: "Period",
      sortBy: "Sort by"))

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
    queryWords: QueryWords(
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
      barsPerCurrency: "Barres à l’échelle de chaque devise, barre pleine :"),
    htmlWords: HTMLWords(
      groupTitle: "Opérations groupées", listTitle: "Opérations", accounting: "Enregistrements lus",
      perDay: "Revenus et dépenses par jour", perMonth: "Revenus et dépenses par mois",
      chartDescription: "Revenus au-dessus de l’axe (barres pleines), dépenses en dessous (barres hachurées).",
      showFigures: "Voir les chiffres", tooLargeToChart: "Sommes trop grandes pour le graphique.",
      scaledPerCurrency: "Barres à l’échelle de chaque devise : la plus longue est le plus grand montant de sa devise.",
      description: "Libellé", amount: "Montant", months: "Mois", accountsTitle: "Comptes",
      allAccounts: "Tous les comptes", period: "Période",
      sortBy: "Trier par"))

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
    queryWords: QueryWords(
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
      barsPerCurrency: "Balken je Währung skaliert, voller Balken:"),
    htmlWords: HTMLWords(
      groupTitle: "Gruppierte Buchungen", listTitle: "Buchungen", accounting: "Gelesene Datensätze",
      perDay: "Einnahmen und Ausgaben pro Tag", perMonth: "Einnahmen und Ausgaben pro Monat",
      chartDescription: "Einnahmen über der Achse (volle Balken), Ausgaben darunter (schraffierte Balken).",
      showFigures: "Zahlen anzeigen", tooLargeToChart: "Summen zu groß für das Diagramm.",
      scaledPerCurrency: "Balken je Währung skaliert: der längste ist der größte Betrag seiner Währung.",
      description: "Beschreibung", amount: "Betrag", months: "Monate", accountsTitle: "Konten",
      allAccounts: "Alle Konten", period: "Zeitraum",
      sortBy: "Sortieren nach"))

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
    queryWords: QueryWords(
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
      barsPerCurrency: "Balken per valuta geschaald, volle balk:"),
    htmlWords: HTMLWords(
      groupTitle: "Gegroepeerde transacties", listTitle: "Transacties", accounting: "Gelezen records",
      perDay: "Inkomsten en uitgaven per dag", perMonth: "Inkomsten en uitgaven per maand",
      chartDescription: "Inkomsten boven de as (volle balken), uitgaven eronder (gearceerde balken).",
      showFigures: "Cijfers tonen", tooLargeToChart: "Sommen te groot voor de grafiek.",
      scaledPerCurrency: "Balken geschaald per valuta: de langste is het grootste bedrag in die valuta.",
      description: "Omschrijving", amount: "Bedrag", months: "Maanden", accountsTitle: "Rekeningen",
      allAccounts: "Alle rekeningen", period: "Periode",
      sortBy: "Sorteren op"))

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
    queryWords: QueryWords(
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
      barsPerCurrency: "Barras a escala de cada moneda, barra completa:"),
    htmlWords: HTMLWords(
      groupTitle: "Movimientos agrupados", listTitle: "Movimientos", accounting: "Registros leídos",
      perDay: "Ingresos y gastos por día", perMonth: "Ingresos y gastos por mes",
      chartDescription: "Ingresos sobre el eje (barras llenas), gastos debajo (barras rayadas).",
      showFigures: "Ver las cifras", tooLargeToChart: "Sumas demasiado grandes para el gráfico.",
      scaledPerCurrency: "Barras a escala por moneda: la más larga es el mayor importe de su moneda.",
      description: "Concepto", amount: "Importe", months: "Meses", accountsTitle: "Cuentas",
      allAccounts: "Todas las cuentas", period: "Periodo",
      sortBy: "Ordenar por"))

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
