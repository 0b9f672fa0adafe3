/// Validates one JSON record in place and finds the fields a schema reads.
///
/// Design: one pass over the record's bytes with an explicit container stack
/// (no recursion, so input cannot deepen the call stack), validating the whole
/// record as JSON — a syntax error anywhere, also inside fields TxFold does not
/// use, rejects the record. Keys are matched against a `FieldTrie`; for a
/// matched key the scanner records where its value sits (`ValueRef`) and
/// nothing else. Strings are not decoded here: escapes are validated and
/// flagged, and decoded later only for the strings a report keeps.
///
/// Worked example, with the trie `id`, `transactionAmountCurrency.amount`:
///
///     {"id":"7","x":[1,{"y":"\""}],"transactionAmountCurrency":{"amount":"1.50"}}
///
/// records slot 0 → bytes 7..<8 (`7`, a string without escapes) and slot 1 →
/// bytes 67..<71 (`1.50`); `x` and its nested array are validated and skipped.
///
/// A scanner holds its own reusable buffers and is used by one thread at a time.
public final class RecordScanner {
  /// The keys to look for.
  public let trie: FieldTrie
  /// Whether `,}` and `,]` are accepted (`--allow-trailing-commas`).
  public let allowTrailingCommas: Bool
  /// The deepest nesting of objects and arrays accepted (the top-level object is depth 1).
  public static let maxDepth = 64

  /// Where each slot's value was found in the last scanned record.
  @usableFromInline var slots: [ValueRef]
  /// Per open container: 1 for an object, 0 for an array.
  @usableFromInline var containerIsObject: [UInt8]
  /// Per open container: its trie node, or -1 when no key below it is wanted.
  @usableFromInline var containerNode: [Int]
  /// Scratch space for keys written with escapes.
  @usableFromInline var keyScratch: [UInt8] = []

  /// Creates a scanner for the keys in `trie`.
  public init(trie: FieldTrie, allowTrailingCommas: Bool = false) {
    self.trie = trie
    self.allowTrailingCommas = allowTrailingCommas
    slots = Array(repeating: ValueRef.absent, count: trie.slotCount)
    containerIsObject = Array(repeating: 0, count: Self.maxDepth + 1)
    containerNode = Array(repeating: -1, count: Self.maxDepth + 1)
  }

  /// The value found for `slot` in the last scanned record.
  @inlinable public func value(_ slot: Int) -> ValueRef { slots[slot] }
}

/// What a record scan found wrong, and where (a byte offset inside the record).
public struct ScanFailure: Error, Sendable, Hashable {
  public var reason: RejectReason
  public var offset: Int
  @inlinable public init(reason: RejectReason, offset: Int) {
    self.reason = reason
    self.offset = offset
  }
}

/// Where a JSON value sits inside a record, and what kind of value it is.
///
/// For strings, `start..<end` excludes the quotes.
public struct ValueRef: Sendable, Hashable {
  public enum Kind: UInt8, Sendable {
    case absent, string, escapedString, number, trueValue, falseValue, null, object, array
  }
  public var start: Int
  public var end: Int
  public var kind: Kind

  public static let absent = ValueRef(start: 0, end: 0, kind: .absent)

  @inlinable public init(start: Int, end: Int, kind: Kind) {
    self.start = start
    self.end = end
    self.kind = kind
  }

  /// True for a string, with or without escapes.
  @inlinable public var isString: Bool { kind == .string || kind == .escapedString }
  /// True when the value is missing or JSON `null`.
  @inlinable public var isAbsentOrNull: Bool { kind == .absent || kind == .null }
}
