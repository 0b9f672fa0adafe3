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
  @usableFromInline let slots: UnsafeMutablePointer<ValueRef>
  @usableFromInline let slotCount: Int
  /// Per open container: 1 for an object, 0 for an array.
  @usableFromInline let containerIsObject: UnsafeMutablePointer<UInt8>
  /// Per open container: its trie node, or -1 when no key below it is wanted.
  @usableFromInline let containerNode: UnsafeMutablePointer<Int32>
  /// The trie flattened for look-ups without array bounds checks or reference counting.
  @usableFromInline let keys: CompiledKeys
  /// Scratch space for keys written with escapes.
  @usableFromInline var keyScratch: [UInt8] = []

  /// Creates a scanner for the keys in `trie`.
  ///
  /// The scanner owns fixed buffers, allocated here once, so scanning a record
  /// allocates nothing and the hot loop works on plain pointers (no
  /// exclusivity checks or reference counting per access).
  public init(trie: FieldTrie, allowTrailingCommas: Bool = false) {
    self.trie = trie
    self.allowTrailingCommas = allowTrailingCommas
    slotCount = trie.slotCount
    slots = .allocate(capacity: max(1, trie.slotCount))
    slots.initialize(repeating: .absent, count: max(1, trie.slotCount))
    containerIsObject = .allocate(capacity: Self.maxDepth + 1)
    containerIsObject.initialize(repeating: 0, count: Self.maxDepth + 1)
    containerNode = .allocate(capacity: Self.maxDepth + 1)
    containerNode.initialize(repeating: -1, count: Self.maxDepth + 1)
    keys = CompiledKeys(trie)
  }

  deinit {
    slots.deallocate()
    containerIsObject.deallocate()
    containerNode.deallocate()
    keys.deallocate()
  }

  /// The value found for `slot` in the last scanned record (`.absent` for a slot the schema lacks).
  @inlinable public func value(_ slot: Int) -> ValueRef {
    // Safe because the index is checked against the allocation.
    slot >= 0 && slot < slotCount ? slots[slot] : .absent
  }
}

/// A `FieldTrie` flattened into three buffers: per node the range of its
/// entries, per entry its key's place in one byte buffer and its slot and
/// child node.
@usableFromInline
struct CompiledKeys {
  @usableFromInline let nodeStart: UnsafeMutablePointer<Int32>
  @usableFromInline let nodeEnd: UnsafeMutablePointer<Int32>
  /// Per node, bit n set when some key of that node is n bytes long (n < 64):
  /// most keys of a record are not wanted and are turned away on length alone.
  @usableFromInline let nodeLengths: UnsafeMutablePointer<UInt64>
  /// Per entry: key offset, key length, slot, child.
  @usableFromInline let entries: UnsafeMutablePointer<SIMD4<Int32>>
  @usableFromInline let keyBytes: UnsafeMutablePointer<UInt8>

  init(_ trie: FieldTrie) {
    let nodes = trie.nodes
    let entryCount = nodes.reduce(0) { $0 + $1.count }
    let byteCount = nodes.reduce(0) { $0 + $1.reduce(0) { $0 + $1.key.count } }
    nodeStart = .allocate(capacity: max(1, nodes.count))
    nodeEnd = .allocate(capacity: max(1, nodes.count))
    nodeLengths = .allocate(capacity: max(1, nodes.count))
    entries = .allocate(capacity: max(1, entryCount))
    keyBytes = .allocate(capacity: max(1, byteCount))
    var entry = 0
    var offset = 0
    for (index, node) in nodes.enumerated() {
      nodeStart[index] = Int32(entry)
      nodeLengths[index] = 0
      for item in node {
        // Keys of 64 bytes or more set no bit; the look-up compares them directly.
        if item.key.count < 64 { nodeLengths[index] |= 1 << UInt64(item.key.count) }
        for (position, byte) in item.key.enumerated() { keyBytes[offset + position] = byte }
        entries[entry] = SIMD4(Int32(offset), Int32(item.key.count), Int32(item.slot), Int32(item.child))
        offset += item.key.count
        entry += 1
      }
      nodeEnd[index] = Int32(entry)
    }
  }

  func deallocate() {
    nodeStart.deallocate()
    nodeEnd.deallocate()
    nodeLengths.deallocate()
    entries.deallocate()
    keyBytes.deallocate()
  }
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
