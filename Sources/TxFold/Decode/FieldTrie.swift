/// The key paths a schema reads, as a small trie the record scanner walks.
///
/// Each path (`["transactionAmountCurrency", "amount"]`) leads to a slot
/// number; the scanner records where each slot's value sits in the record and
/// skips every other key without decoding it. Nodes are stored flat so one
/// look-up is a short loop over a node's keys.
///
/// Example: the paths `id`, `transactionAmountCurrency.amount` and
/// `transactionAmountCurrency.currencyCode` give a root node with the keys
/// `id` (slot 0) and `transactionAmountCurrency` (child node 1), and node 1
/// with the keys `amount` (slot 1) and `currencyCode` (slot 2).
@_spi(Benchmarks) public struct FieldTrie: Sendable {
  @usableFromInline struct Entry: Sendable {
    @usableFromInline var key: [UInt8]
    /// The slot this key's value fills, or -1.
    @usableFromInline var slot: Int
    /// The node for this key's nested object, or -1.
    @usableFromInline var child: Int
  }

  /// `nodes[i]` lists node i's keys. Node 0 is the record's top-level object.
  @usableFromInline var nodes: [[Entry]] = [[]]
  /// The dotted path of each slot, for messages (`transactionAmountCurrency.amount`).
  public private(set) var slotNames: [String] = []

  /// The number of slots.
  @inlinable public var slotCount: Int { slotNames.count }

  /// Creates an empty trie; a schema adds its field paths to it.
  public init() {}

  /// Adds a dotted path (keys separated by `.`) and returns its slot number.
  @discardableResult
  public mutating func add(path: String) -> Int {
    let keys = path.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) }
    let slot = slotNames.count
    slotNames.append(path)
    var node = 0
    for (position, key) in keys.enumerated() {
      let isLast = position == keys.count - 1
      if let index = nodes[node].firstIndex(where: { $0.key == key }) {
        if isLast {
          nodes[node][index].slot = slot
        } else {
          if nodes[node][index].child < 0 {
            nodes.append([])
            nodes[node][index].child = nodes.count - 1
          }
          node = nodes[node][index].child
        }
      } else if isLast {
        nodes[node].append(Entry(key: key, slot: slot, child: -1))
      } else {
        nodes.append([])
        nodes[node].append(Entry(key: key, slot: -1, child: nodes.count - 1))
        node = nodes.count - 1
      }
    }
    return slot
  }
}
