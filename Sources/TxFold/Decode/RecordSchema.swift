/// Where a schema finds each canonical field (SPEC §3), and the rules that
/// turn its values into a transaction.
public struct RecordSchema: Sendable {
  /// The schema's name as shown in the summary (`backbase`).
  public var name: String
  /// The key paths, with one slot per canonical field below.
  public private(set) var trie = FieldTrie()
  @usableFromInline var idSlot = -1
  @usableFromInline var instantSlot = -1
  @usableFromInline var amountSlot = -1
  @usableFromInline var currencySlot = -1
  @usableFromInline var indicatorSlot = -1
  @usableFromInline var stateSlot = -1
  @usableFromInline var descriptionSlot = -1
  @usableFromInline var categorySlot = -1
  @usableFromInline var counterpartySlot = -1
  @usableFromInline var feeSlot = -1
  /// The written amount is a magnitude and the indicator gives its sign (Backbase).
  public var amountIsMagnitude = false
  /// The state used when the schema has no state field.
  public var defaultState: String?
  /// The currency used when the schema has no currency field.
  public var defaultCurrency: String?

  /// The Backbase transaction schema of the seed assignment.
  public static let backbase: RecordSchema = {
    var schema = RecordSchema(name: "backbase")
    schema.idSlot = schema.trie.add(path: "id")
    schema.descriptionSlot = schema.trie.add(path: "description")
    schema.categorySlot = schema.trie.add(path: "category")
    schema.counterpartySlot = schema.trie.add(path: "counterPartyName")
    schema.amountSlot = schema.trie.add(path: "transactionAmountCurrency.amount")
    schema.currencySlot = schema.trie.add(path: "transactionAmountCurrency.currencyCode")
    schema.indicatorSlot = schema.trie.add(path: "creditDebitIndicator")
    schema.instantSlot = schema.trie.add(path: "creationTime")
    schema.stateSlot = schema.trie.add(path: "state")
    schema.amountIsMagnitude = true
    return schema
  }()

  /// Creates an empty schema; add fields with the slot setters.
  public init(name: String) {
    self.name = name
  }

  /// The schemas known by name (`--schema`).
  public static func named(_ name: String) -> RecordSchema? {
    switch name {
    case "backbase": return .backbase
    default: return nil
    }
  }

  /// The input path of a slot, for messages.
  public func fieldName(slot: Int) -> String? {
    slot >= 0 && slot < trie.slotNames.count ? trie.slotNames[slot] : nil
  }
}
