import CJSONIndex

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
/// Two paths share this contract: records up to `indexedLimit` bytes go
/// through a vectorised token index first (`RecordScanner+Indexed.swift`), and
/// the byte state machine (`RecordScanner+Unsafe.swift`) scans whatever the
/// fast path does not accept, so every rejection is named by one scanner.
///
/// A scanner holds its own reusable buffers and is used by one thread at a time.
@_spi(Benchmarks) public final class RecordScanner {
  /// How the scanner reads records: the token index with a given kernel
  /// first, or the byte state machine alone. Tests and benchmarks pick one;
  /// everything else uses `.best`.
  public enum Kernel: Sendable, CaseIterable {
    /// The fastest token-index kernel this CPU has.
    case best
    /// The token index computed in portable C, one byte at a time.
    case portable
    /// The token index with SSE2 (x86-64's baseline).
    case sse2
    /// The token index with AVX2.
    case avx2
    /// The token index with AVX-512 (BW).
    case avx512
    /// The token index with AVX-512 (BW) and VBMI2's byte compression.
    case avx512vbmi2
    /// The token index with ARM NEON (arm64 only).
    case neon
    /// The byte state machine alone, without the token index.
    case byteAtATime
  }

  /// The longest record the token index reads; longer ones go to the byte
  /// state machine, which needs no buffers that grow with the record.
  public static let indexedLimit = 1 << 16
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
  /// The token index of the last record (`indexedLimit` entries).
  @usableFromInline let tokens: UnsafeMutablePointer<UInt32>
  /// The string bytes of the last record that are backslashes or non-ASCII.
  @usableFromInline let specials: UnsafeMutablePointer<UInt32>
  /// The `TXFOLD_JSON_INDEX_KERNEL_…` number, or -1 for the byte state machine alone.
  @usableFromInline let indexKernel: Int32

  /// Creates a scanner for the keys in `trie`.
  ///
  /// The scanner owns fixed buffers, allocated here once, so scanning a record
  /// allocates nothing and the hot loop works on plain pointers (no
  /// exclusivity checks or reference counting per access).
  public init(trie: FieldTrie, allowTrailingCommas: Bool = false, kernel: Kernel = .best) {
    self.trie = trie
    indexKernel = Self.kernelNumber(kernel)
    tokens = .allocate(capacity: Self.indexedLimit + Int(TXFOLD_JSON_INDEX_SLACK))
    specials = .allocate(capacity: Self.indexedLimit + Int(TXFOLD_JSON_INDEX_SLACK))
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
    tokens.deallocate()
    specials.deallocate()
  }

  /// The kernel `.best` resolves to on this CPU.
  public static var bestKernel: Kernel {
    switch txfold_json_index_best_kernel() {
    case Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2): .avx512vbmi2
    case Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512): .avx512
    case Int32(TXFOLD_JSON_INDEX_KERNEL_AVX2): .avx2
    case Int32(TXFOLD_JSON_INDEX_KERNEL_SSE2): .sse2
    case Int32(TXFOLD_JSON_INDEX_KERNEL_NEON): .neon
    default: .portable
    }
  }

  /// Whether this CPU runs `kernel` as itself (a kernel it lacks runs as the best it has).
  public static func supports(_ kernel: Kernel) -> Bool {
    switch kernel {
    case .best, .byteAtATime, .portable: true
    // NEON and the x86 kernels are two families: a CPU has one or the other.
    case .neon: bestKernel == .neon
    default: bestKernel != .neon && kernelNumber(kernel) <= kernelNumber(bestKernel)
    }
  }

  static func kernelNumber(_ kernel: Kernel) -> Int32 {
    switch kernel {
    case .best: txfold_json_index_best_kernel()
    case .portable: Int32(TXFOLD_JSON_INDEX_KERNEL_PORTABLE)
    case .sse2: Int32(TXFOLD_JSON_INDEX_KERNEL_SSE2)
    case .avx2: Int32(TXFOLD_JSON_INDEX_KERNEL_AVX2)
    case .avx512: Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512)
    case .avx512vbmi2: Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2)
    case .neon: Int32(TXFOLD_JSON_INDEX_KERNEL_NEON)
    case .byteAtATime: -1
    }
  }

  /// The value found for `slot` in the last scanned record (`.absent` for a slot the schema lacks).
  @inlinable package func value(_ slot: Int) -> ValueRef {
    // Safe because the index is checked against the allocation.
    slot >= 0 && slot < slotCount ? slots[slot] : .absent
  }
}

/// A `FieldTrie` flattened for look-ups without array bounds checks or
/// reference counting: per node a table from key length to the node's keys of
/// that length, per entry its key's place in one byte buffer and its slot and
/// child node.
///
/// A look-up is one row read by length — most unwanted keys of a record stop
/// there, and a schema's keys rarely share a length — whose first key (up to
/// 32 bytes) is kept in the row and compared in one step; the row's other keys
/// follow in a list.
@usableFromInline
struct CompiledKeys {
  /// Lengths below this have their own table row; longer keys share the last one.
  @usableFromInline static let lengthRows = 64
  /// Per node, `lengthRows` rows: the first entry whose key has that length (the
  /// last row: 63 bytes or more), or -1.
  @usableFromInline let byLength: UnsafeMutablePointer<Int32>
  /// Per entry: key offset, key length, slot, child.
  @usableFromInline let entries: UnsafeMutablePointer<SIMD4<Int32>>
  /// Per entry: the next entry of the same node and row, or -1.
  @usableFromInline let nextInRow: UnsafeMutablePointer<Int32>
  @usableFromInline let keyBytes: UnsafeMutablePointer<UInt8>
  /// Per node, where its subtree's slots start in `subtreeSlots` (one more
  /// entry than nodes: node i's are `subtreeStart[i]..<subtreeStart[i + 1]`).
  @usableFromInline let subtreeStart: UnsafeMutablePointer<Int32>
  /// The slots under each node, node after node: cleared when the node's key
  /// comes again, so a repeated key's last value wins as a whole.
  @usableFromInline let subtreeSlots: UnsafeMutablePointer<Int32>
  /// Per node, `lengthRows` rows: the row's first entry with its key inline,
  /// so a look-up that hits it reads the row and the key, not the row, then
  /// the entry, then the entry's key bytes, and compares without a branch on
  /// the length.
  @usableFromInline let rowHeads: UnsafeMutablePointer<RowHead>

  /// A row's first entry, with what a look-up compares inline.
  @usableFromInline
  struct RowHead: Sendable {
    /// The first entry's key, zero-padded, when it is at most 32 bytes: first, so that a
    /// pointer to the row is a pointer to it (checked when the rows are built).
    @usableFromInline var key: SIMD32<UInt8>
    /// The first entry's key length (-1: over 32 bytes; -2: the row is empty), slot and child.
    @usableFromInline var length: Int32
    @usableFromInline var slot: Int32
    @usableFromInline var child: Int32
    /// The row's second entry, or -1: where a look-up whose key differs from the first goes
    /// on (most rows hold one key, so such a look-up ends here). Fills the row's padding.
    @usableFromInline var next: Int32

    static let empty = RowHead(key: .zero, length: -2, slot: -1, child: -1, next: -1)
  }

  init(_ trie: FieldTrie) {
    let nodes = trie.nodes
    let entryCount = nodes.reduce(0) { $0 + $1.count }
    let byteCount = nodes.reduce(0) { $0 + $1.reduce(0) { $0 + $1.key.count } }
    byLength = .allocate(capacity: max(1, nodes.count) * Self.lengthRows)
    byLength.initialize(repeating: -1, count: max(1, nodes.count) * Self.lengthRows)
    entries = .allocate(capacity: max(1, entryCount))
    nextInRow = .allocate(capacity: max(1, entryCount))
    keyBytes = .allocate(capacity: max(1, byteCount))
    var entry = 0
    var offset = 0
    for (index, node) in nodes.enumerated() {
      let firstEntry = entry
      for item in node {
        for (position, byte) in item.key.enumerated() { keyBytes[offset + position] = byte }
        entries[entry] = SIMD4(Int32(offset), Int32(item.key.count), Int32(item.slot), Int32(item.child))
        offset += item.key.count
        entry += 1
      }
      // Linked in reverse so each row lists its entries in the trie's order.
      for item in (firstEntry..<entry).reversed() {
        let row = index * Self.lengthRows + Self.row(forLength: Int(entries[item][1]))
        nextInRow[item] = byLength[row]
        byLength[row] = Int32(item)
      }
    }
    precondition(MemoryLayout<RowHead>.offset(of: \RowHead.key) == 0, "a row's key must come first")
    rowHeads = .allocate(capacity: max(1, nodes.count) * Self.lengthRows)
    rowHeads.initialize(repeating: .empty, count: max(1, nodes.count) * Self.lengthRows)
    for row in 0..<(nodes.count * Self.lengthRows) where byLength[row] >= 0 {
      let first = entries[Int(byLength[row])]
      guard first[1] <= 32 else {
        rowHeads[row].length = -1
        continue
      }
      var key = SIMD32<UInt8>.zero
      for index in 0..<Int(first[1]) { key[index] = keyBytes[Int(first[0]) + index] }
      rowHeads[row] = RowHead(
        key: key, length: first[1], slot: first[2], child: first[3], next: nextInRow[Int(byLength[row])])
    }
    // Each node's slots, its children's included (a work list, not recursion).
    var perNode: [[Int32]] = []
    for root in nodes.indices {
      var found: [Int32] = []
      var pending = [root]
      while let node = pending.popLast() {
        for item in nodes[node] {
          if item.slot >= 0 { found.append(Int32(item.slot)) }
          if item.child >= 0 { pending.append(item.child) }
        }
      }
      perNode.append(found)
    }
    let slotTotal = perNode.reduce(0) { $0 + $1.count }
    subtreeStart = .allocate(capacity: nodes.count + 1)
    subtreeSlots = .allocate(capacity: max(1, slotTotal))
    var next = 0
    for (node, found) in perNode.enumerated() {
      subtreeStart[node] = Int32(next)
      for slot in found {
        subtreeSlots[next] = slot
        next += 1
      }
    }
    subtreeStart[nodes.count] = Int32(next)
  }

  /// The table row of a key `length` bytes long.
  @inlinable @inline(__always)
  static func row(forLength length: Int) -> Int { min(length, lengthRows - 1) }

  func deallocate() {
    rowHeads.deallocate()
    byLength.deallocate()
    entries.deallocate()
    nextInRow.deallocate()
    keyBytes.deallocate()
    subtreeStart.deallocate()
    subtreeSlots.deallocate()
  }
}

/// What a record scan found wrong, and where (a byte offset inside the record).
@_spi(Benchmarks) public struct ScanFailure: Error, Sendable, Hashable {
  /// Why the record is not acceptable JSON (or too deep, or too long).
  public var reason: RejectReason
  /// The byte offset inside the record where the problem was found.
  public var offset: Int
  /// Creates a failure for `reason` at `offset`.
  @inlinable public init(reason: RejectReason, offset: Int) {
    self.reason = reason
    self.offset = offset
  }
}

/// Where a JSON value sits inside a record, and what kind of value it is.
///
/// For strings, `start..<end` excludes the quotes.
@usableFromInline package struct ValueRef: Sendable, Hashable {
  /// What kind of JSON value the reference points at; `escapedString` needs decoding, `string` does not.
  public enum Kind: UInt8, Sendable {
    case absent, string, escapedString, number, trueValue, falseValue, null, object, array
  }
  /// The value's first byte in the record (after the opening quote for strings).
  public var start: Int
  /// One past the value's last byte (before the closing quote for strings).
  public var end: Int
  /// What the value is, so a reader knows how to take it.
  public var kind: Kind

  /// The reference for a field the record does not have.
  public static let absent = ValueRef(start: 0, end: 0, kind: .absent)

  /// Creates a reference to bytes `start..<end` holding a value of `kind`.
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
