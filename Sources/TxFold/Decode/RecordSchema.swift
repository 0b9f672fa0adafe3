/// The fields of the canonical transaction (Documentation/Guide.md, "Schemas") that a schema maps input paths to.
///
/// The raw value is the field's index in `allCases`.
public enum CanonicalField: Int, Sendable, Hashable, CaseIterable {
  case id, instant, amount, currency, indicator, state, description, category, counterparty, fee
  /// The account a record belongs to; read only by per-account runs (`ReadOptions.accounts`).
  case account

  /// Fields every mapping must name: without them no transaction can be built.
  public static let required: [CanonicalField] = [.instant, .amount]

  /// The name used by `--field NAME=PATH` (`id`, `instant`, …).
  public var name: String { String(describing: self) }

  /// The field called `name`, or `nil`.
  public init?(name: String) {
    guard let field = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = field
  }
}

/// Where a schema finds each canonical field (Documentation/Guide.md, "Schemas"), and the rules that
/// turn its values into a transaction.
///
/// A field may have several paths, tried in order: the first one present and
/// not `null` is used (PSD2's `bookingDateTime`, else `bookingDate`, else
/// `valueDate`). Fields a schema does not map take its defaults: the state is
/// `defaultState` (or what the input's structure implies, such as PSD2's
/// `pending` array), the currency is `defaultCurrency`, the indicator comes
/// from the amount's sign, and a missing id becomes the record's position in
/// its input.
///
/// ```swift
/// var schema = RecordSchema.custom(
///   [(.amount, "value.amount"), (.instant, "bookedAt"), (.id, "ref")], defaultCurrency: "EUR")
/// ```
public struct RecordSchema: Sendable {
  /// The schema's name as shown in the summary (`backbase`, `custom`).
  public var name: String
  /// The key paths, with one slot per distinct path.
  @_spi(Benchmarks) public private(set) var trie = FieldTrie()
  /// Each mapped field's paths, in order of preference.
  public private(set) var paths: [CanonicalField: [String]] = [:]
  /// PSD2: the counterparty of a debit is read from these paths instead of
  /// `paths[.counterparty]` (the creditor rather than the debtor).
  public private(set) var debitCounterpartyPaths: [String] = []
  /// The order fields were mapped in, which is the order of the trie's keys.
  private var order: [CanonicalField] = []

  @usableFromInline var idSlot = -1
  @usableFromInline var instantSlot = -1
  @usableFromInline var amountSlot = -1
  @usableFromInline var currencySlot = -1
  @usableFromInline var indicatorSlot = -1
  @usableFromInline var stateSlot = -1
  @usableFromInline var descriptionSlot = -1
  @usableFromInline var categorySlot = -1
  @usableFromInline var counterpartySlot = -1
  @usableFromInline var counterpartyDebitSlot = -1
  @usableFromInline var feeSlot = -1
  @usableFromInline var accountSlot = -1
  /// The second and later paths of each field, by `CanonicalField` order;
  /// consulted only when the first path is absent or `null`.
  @usableFromInline var fallbackSlots: [[Int]] = Array(repeating: [], count: CanonicalField.allCases.count)
  /// Bit `field.rawValue` is set when that field has fallback slots.
  @usableFromInline var fallbackMask: UInt32 = 0

  /// The written amount is a magnitude and the indicator gives its sign (Backbase).
  public var amountIsMagnitude = false
  /// The state used when the schema has no state field and the input's
  /// structure implies none (`COMPLETED` when `nil`).
  public var defaultState: String?
  /// The currency used when the schema has no currency field.
  public var defaultCurrency: String?
  /// A record whose id paths are all absent or `null` gets its 1-based
  /// position in its input as id, rather than being rejected. Always the case
  /// for a schema that maps no id.
  public var idFallsBackToPosition = false
  /// Where the schema keeps a record's account when a run wants one
  /// (Backbase's `arrangementId`); empty when it keeps none. Mapped only by
  /// `requiringAccount()`, so runs that do not partition by account never read it.
  public var defaultAccountPaths: [String] = []
  /// A record whose account is absent, `null` or empty is rejected
  /// (`missing-field`); set by `requiringAccount()`.
  public private(set) var accountRequired = false
  /// The schema's records come in reports that name their account (PSD2's
  /// `account.iban`, else `account.resourceId`, beside `transactions`): a run
  /// that wants accounts and maps no account field takes the report's.
  public var accountFromReport = false
  /// Each record's account is its report's (set by `requiringAccount()` from
  /// `accountFromReport`); a record outside such a report is rejected.
  public private(set) var readsReportAccount = false

  /// The currency of schemas without a currency field unless told otherwise (`--currency`).
  public static let standardCurrency = "EUR"

  /// Creates a schema without fields; map them with `map(_:to:)`.
  public init(name: String) {
    self.name = name
  }

  /// Maps `field` to `paths` (dotted key paths, tried in order), replacing
  /// what it was mapped to. An empty list unmaps the field.
  public mutating func map(_ field: CanonicalField, to paths: [String]) {
    self.paths[field] = paths.isEmpty ? nil : paths
    if !order.contains(field) { order.append(field) }
    rebuild()
  }

  /// Reads a debit's counterparty from `paths` instead (PSD2's creditor).
  public mutating func mapDebitCounterparty(to paths: [String]) {
    debitCounterpartyPaths = paths
    rebuild()
  }

  /// The canonical fields a usable mapping lacks (`instant`, `amount`).
  public var missingRequiredFields: [CanonicalField] {
    CanonicalField.required.filter { paths[$0] == nil }
  }

  /// This schema reading every record's account, which it must have: the
  /// field mapped (`--field account=PATH`) or else `defaultAccountPaths`;
  /// `nil` when the schema has neither.
  public func requiringAccount() -> RecordSchema? {
    var schema = self
    if schema.paths[.account] == nil {
      if defaultAccountPaths.isEmpty {
        guard accountFromReport else { return nil }
        schema.readsReportAccount = true
        return schema
      }
      schema.map(.account, to: defaultAccountPaths)
    }
    schema.accountRequired = true
    return schema
  }

  /// True when some records may take their position as id.
  public var mayUsePositionIDs: Bool { idFallsBackToPosition || paths[.id] == nil }

  /// Lays out the trie and slots from `paths`. A path named by two fields
  /// shares one slot, so both see its value.
  private mutating func rebuild() {
    trie = FieldTrie()
    var slotOfPath: [String: Int] = [:]
    func slot(_ path: String) -> Int {
      if let known = slotOfPath[path] { return known }
      let added = trie.add(path: path)
      slotOfPath[path] = added
      return added
    }
    fallbackSlots = Array(repeating: [], count: CanonicalField.allCases.count)
    fallbackMask = 0
    var primary: [CanonicalField: Int] = [:]
    for field in order {
      guard let fieldPaths = paths[field], let first = fieldPaths.first else { continue }
      primary[field] = slot(first)
      fallbackSlots[field.rawValue] = fieldPaths.dropFirst().map(slot)
      if fieldPaths.count > 1 { fallbackMask |= 1 << UInt32(field.rawValue) }
    }
    idSlot = primary[.id] ?? -1
    instantSlot = primary[.instant] ?? -1
    amountSlot = primary[.amount] ?? -1
    currencySlot = primary[.currency] ?? -1
    indicatorSlot = primary[.indicator] ?? -1
    stateSlot = primary[.state] ?? -1
    descriptionSlot = primary[.description] ?? -1
    categorySlot = primary[.category] ?? -1
    counterpartySlot = primary[.counterparty] ?? -1
    feeSlot = primary[.fee] ?? -1
    accountSlot = primary[.account] ?? -1
    counterpartyDebitSlot = debitCounterpartyPaths.first.map(slot) ?? -1
  }

  /// A schema mapping each field to its paths.
  init(name: String, fields: KeyValuePairs<CanonicalField, [String]>) {
    self.name = name
    for (field, fieldPaths) in fields {
      paths[field] = fieldPaths
      order.append(field)
    }
    rebuild()
  }

  /// The Backbase transaction schema of the seed assignment.
  public static let backbase: RecordSchema = {
    var schema = RecordSchema(
      name: "backbase",
      fields: [
        .id: ["id"], .description: ["description"], .category: ["category"], .counterparty: ["counterPartyName"],
        .amount: ["transactionAmountCurrency.amount"], .currency: ["transactionAmountCurrency.currencyCode"],
        .indicator: ["creditDebitIndicator"], .instant: ["creationTime"], .state: ["state"],
      ])
    schema.amountIsMagnitude = true
    schema.defaultAccountPaths = ["arrangementId"]
    return schema
  }()

  /// PAYBACK's mock transactions (`{"items": [...]}`): points with a signed
  /// amount, state `COMPLETED`.
  public static let payback = RecordSchema(
    name: "payback",
    fields: [
      .id: ["alias.reference"], .counterparty: ["partnerDisplayName"], .category: ["category"],
      .description: ["transactionDetail.description"], .instant: ["transactionDetail.bookingDate"],
      .amount: ["transactionDetail.value.amount"], .currency: ["transactionDetail.value.currency"],
    ])

  /// The Spanish code test's ledger: signed `amount` and `fee`, no currency
  /// (`EUR`, or `--currency`), state `COMPLETED`.
  public static let ledger: RecordSchema = {
    var schema = RecordSchema(
      name: "ledger",
      fields: [
        .id: ["id"], .instant: ["date"], .amount: ["amount"], .fee: ["fee"], .description: ["description"],
      ])
    schema.defaultCurrency = standardCurrency
    return schema
  }()

  /// Swile's transactions (`{"transactions": [...]}`): no ids, so each
  /// record's position is its id; state `COMPLETED`.
  public static let swile = RecordSchema(
    name: "swile",
    fields: [
      .counterparty: ["name"], .category: ["type"], .instant: ["date"], .description: ["message"],
      .amount: ["amount.value"], .currency: ["amount.currency.iso_3"],
    ])

  /// Berlin Group NextGenPSD2 account reports (`{"transactions": {"booked":
  /// [...], "pending": [...]}}`): the array gives the state; signed string
  /// amounts; the creditor is a debit's counterparty and the debtor a credit's.
  public static let psd2: RecordSchema = {
    var schema = RecordSchema(
      name: "psd2",
      fields: [
        .id: ["transactionId", "entryReference"], .instant: ["bookingDateTime", "bookingDate", "valueDate"],
        .amount: ["transactionAmount.amount"], .currency: ["transactionAmount.currency"],
        .description: ["remittanceInformationUnstructured"], .counterparty: ["debtorName"],
      ])
    schema.mapDebitCounterparty(to: ["creditorName"])
    schema.idFallsBackToPosition = true
    schema.accountFromReport = true
    return schema
  }()

  /// A mapping of the fields given (`--field NAME=PATH`); a field named more
  /// than once takes its paths in the order given. With an indicator field
  /// the amount is read as a magnitude, as Backbase writes it; without one it
  /// is signed. Check `missingRequiredFields` before use.
  public static func custom(
    _ fields: [(field: CanonicalField, path: String)], defaultCurrency: String = standardCurrency
  ) -> RecordSchema {
    var schema = RecordSchema(name: "custom")
    schema.defaultCurrency = defaultCurrency
    for (field, _) in fields where !schema.order.contains(field) { schema.order.append(field) }
    schema.paths = Dictionary(grouping: fields, by: \.field).mapValues { $0.map(\.path) }
    schema.amountIsMagnitude = schema.paths[.indicator] != nil
    schema.rebuild()
    return schema
  }

  /// This schema with some fields mapped elsewhere (`--schema ledger --field
  /// description=note`); each field named replaces all of that field's paths.
  /// As for `custom`, the amount is a magnitude exactly when an indicator is mapped.
  public func overriding(_ fields: [(field: CanonicalField, path: String)]) -> RecordSchema {
    var schema = self
    schema.name = name + "+fields"
    let grouped = Dictionary(grouping: fields, by: \.field)
    for field in CanonicalField.allCases {
      guard let group = grouped[field] else { continue }
      schema.paths[field] = group.map(\.path)
      if !schema.order.contains(field) { schema.order.append(field) }
      if field == .counterparty { schema.debitCounterpartyPaths = [] }
    }
    schema.amountIsMagnitude = schema.paths[.indicator] != nil
    schema.rebuild()
    return schema
  }

  /// The schemas `--schema auto` chooses from, in order of preference on a tie.
  public static let builtIn: [RecordSchema] = [.backbase, .payback, .ledger, .swile, .psd2]

  /// The schemas known by name (`--schema`).
  public static func named(_ name: String) -> RecordSchema? {
    builtIn.first { $0.name == name }
  }

  /// The input path of a slot, for messages.
  public func fieldName(slot: Int) -> String? {
    slot >= 0 && slot < trie.slotNames.count ? trie.slotNames[slot] : nil
  }

  /// The other paths tried for the field whose first path is `slot`, for messages.
  public func alternatives(slot: Int) -> [String] {
    guard let path = fieldName(slot: slot) else { return [] }
    for fieldPaths in paths.values where fieldPaths.first == path && fieldPaths.count > 1 {
      return Array(fieldPaths.dropFirst())
    }
    return []
  }
}
