/// A worker's decoders: one per schema the run may read with, each made when
/// a chunk first names it (`RecordChunk.schemaIndex`). Every chunk reader
/// (`ChunkFolder`, `ListChunkFolder`, `SummaryChunkFolder`, `TransactionReader`)
/// keeps one; it is used by one thread at a time, once a chunk.
struct SchemaDecoders {
  /// The run's schemas; a chunk names the one its records are read with.
  let schemas: [RecordSchema]
  private let zone: ZoneResolver
  private let allowTrailingCommas: Bool
  private var made: [RecordDecoder?]

  init(read: ReadOptions) {
    schemas = read.schemaCandidates
    zone = read.zone
    allowTrailingCommas = read.allowTrailingCommas
    made = Array(repeating: nil, count: schemas.count)
  }

  /// The decoder for `schemas[index]`.
  mutating func decoder(_ index: Int) -> RecordDecoder {
    if let decoder = made[index] { return decoder }
    let decoder = RecordDecoder(schema: schemas[index], zone: zone, allowTrailingCommas: allowTrailingCommas)
    made[index] = decoder
    return decoder
  }
}

/// Per schema, the texts a record without a state or currency of its own
/// takes, as bytes (as `Transaction` would hold them), and the same
/// upper-cased, as the selection compares them (`RecordSelection`).
struct SchemaDefaults {
  let states: [[UInt8]]
  let currencies: [[UInt8]]
  let selectionStates: [[UInt8]]
  let selectionCurrencies: [[UInt8]]

  init(_ schemas: [RecordSchema]) {
    states = schemas.map { Array(($0.defaultState ?? KnownState.completed).utf8) }
    currencies = schemas.map { Array(($0.defaultCurrency ?? RecordSchema.standardCurrency).utf8) }
    selectionStates = states.map { $0.map(ByteStringInterner.upper) }
    selectionCurrencies = currencies.map { $0.map(ByteStringInterner.upper) }
  }
}

extension ImpliedState {
  static let pendingBytes = Array(KnownState.pending.utf8)
  static let completedBytes = Array(KnownState.completed.utf8)

  /// The state of a record without one written: the one its array implies,
  /// else `schemaDefault`.
  @inline(__always)
  func stateBytes(else schemaDefault: [UInt8]) -> [UInt8] {
    switch self {
    case .none: schemaDefault
    case .pending: Self.pendingBytes
    case .completed: Self.completedBytes
    }
  }
}
