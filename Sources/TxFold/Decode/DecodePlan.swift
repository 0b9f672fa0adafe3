/// How a `RecordDecoder` reads its schema's fields, resolved once when the
/// decoder is made: the slot each field reads (-1 for none) and what the
/// schema supplies instead.
///
/// A plan is *direct* when every field reads exactly one path (no fallback
/// paths) and every slot is inside the scanner's slot table; then the
/// per-record path (`RecordDecoder.decodeDirect`) reads each field's value
/// straight from the scanner's slots, without look-up, bounds or fallback
/// checks. Other schemas (PSD2's alternative paths, `--field` repeated for
/// a field) take the general path.
@usableFromInline
struct DecodePlan: Sendable {
  @usableFromInline let id: Int
  @usableFromInline let instant: Int
  @usableFromInline let amount: Int
  @usableFromInline let currency: Int
  @usableFromInline let indicator: Int
  @usableFromInline let state: Int
  @usableFromInline let description: Int
  @usableFromInline let category: Int
  @usableFromInline let counterparty: Int
  /// A debit's counterparty, when the schema reads it elsewhere (else `counterparty`).
  @usableFromInline let counterpartyDebit: Int
  @usableFromInline let fee: Int
  @usableFromInline let account: Int
  /// An account that is absent, `null` or empty rejects the record.
  @usableFromInline let accountRequired: Bool
  /// A mapped id that is absent or `null` rejects the record (no position fallback).
  @usableFromInline let idRequired: Bool
  @usableFromInline let amountIsMagnitude: Bool
  /// True when `RecordDecoder.decodeDirect` may read the slots above unchecked.
  @usableFromInline let direct: Bool

  init(schema: RecordSchema, slotCount: Int) {
    id = schema.idSlot
    instant = schema.instantSlot
    amount = schema.amountSlot
    currency = schema.currencySlot
    indicator = schema.indicatorSlot
    state = schema.stateSlot
    description = schema.descriptionSlot
    category = schema.categorySlot
    counterparty = schema.counterpartySlot
    counterpartyDebit = schema.counterpartyDebitSlot >= 0 ? schema.counterpartyDebitSlot : schema.counterpartySlot
    fee = schema.feeSlot
    account = schema.accountSlot
    accountRequired = schema.accountRequired
    idRequired = schema.idSlot >= 0 && !schema.idFallsBackToPosition
    amountIsMagnitude = schema.amountIsMagnitude
    let optional = [
      id, currency, indicator, state, description, category, counterparty, counterpartyDebit, fee, account,
    ]
    direct =
      schema.fallbackMask == 0 && instant >= 0 && amount >= 0 && instant < slotCount && amount < slotCount
      && optional.allSatisfy { $0 < slotCount }
  }
}
