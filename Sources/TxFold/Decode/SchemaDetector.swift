/// Chooses the schema of an input for `--schema auto` from its first valid
/// record's top-level keys.
///
/// A record is valid for a candidate when it has a top-level key for each
/// field the candidate requires (for PSD2's instant, any of its three paths)
/// — where the candidate's path goes deeper (`amount.value`) the key must hold
/// an object, and where it ends there (`amount`) it must not, so Swile's
/// `"amount": {…}` and the ledger's `"amount": -1.5` tell the two apart.
/// Among the candidates a record is valid for, the one with the most of its
/// own top-level keys present wins; a tie goes to the earlier candidate.
///
/// Example: `{"id":4734,"date":"…","amount":-193.38,"fee":-3.18}` is valid for
/// the ledger only (backbase lacks `creationTime`, swile an object `amount`).
///
/// Records before the first valid one — invalid JSON, or objects valid for no
/// candidate — decide nothing; the pipeline rejects them the same way
/// whatever is chosen later, so the choice cannot depend on chunk boundaries.
final class SchemaDetector {
  /// The schemas to choose from.
  let candidates: [RecordSchema]
  private let scanner: RecordScanner
  /// Per top-level key slot: for each candidate, +1 when it uses the key as
  /// an object, -1 as a scalar, 0 not at all.
  private let usage: [[Int8]]
  /// Per candidate, per required field: the key slots that satisfy it.
  private let requirements: [[[Int]]]
  /// Per candidate, the fields `requirements` lists, in the same order.
  private let requiredFields: [[CanonicalField]]

  /// Creates a detector that chooses among `candidates`, in the order given for ties.
  init(candidates: [RecordSchema] = RecordSchema.builtIn, allowTrailingCommas: Bool = false) {
    self.candidates = candidates
    var trie = FieldTrie()
    var slotOfKey: [String: Int] = [:]
    var usage: [[Int8]] = []
    var requirements: [[[Int]]] = []
    var requiredFields: [[CanonicalField]] = []
    func slot(_ path: String) -> Int {
      let key = String(path.split(separator: ".", omittingEmptySubsequences: false)[0])
      if let known = slotOfKey[key] { return known }
      let added = trie.add(path: key)
      slotOfKey[key] = added
      usage.append(Array(repeating: 0, count: candidates.count))
      return added
    }
    for (index, schema) in candidates.enumerated() {
      let paths = (schema.paths.values.flatMap { $0 } + schema.debitCounterpartyPaths).sorted()
      for path in paths {
        usage[slot(path)][index] = path.contains(".") ? 1 : -1
      }
      var required: [CanonicalField] = [.instant, .amount]
      for field in [CanonicalField.currency, .indicator, .state] where schema.paths[field] != nil {
        required.append(field)
      }
      if schema.paths[.id] != nil && !schema.idFallsBackToPosition { required.append(.id) }
      requirements.append(required.map { field in (schema.paths[field] ?? []).map(slot) })
      requiredFields.append(required)
    }
    self.usage = usage
    self.requirements = requirements
    self.requiredFields = requiredFields
    scanner = RecordScanner(trie: trie, allowTrailingCommas: allowTrailingCommas)
  }

  /// What one record says.
  enum Verdict: Equatable, Sendable {
    /// Not a valid JSON object.
    case invalid
    /// A JSON object, but not valid for any candidate.
    case unfit
    /// A record valid for `candidates[index]`, and best matched by it.
    case schema(index: Int)
  }

  /// Whether the scanned record's key `slot` is there as `candidate` uses it (an object or not).
  private func matches(_ slot: Int, _ candidate: Int) -> Bool {
    let value = scanner.value(slot)
    guard value.kind != .absent else { return false }
    let use = usage[slot][candidate]
    return value.kind == .object ? use > 0 : use < 0
  }

  /// Judges one record.
  func verdict(for record: UnsafeBufferPointer<UInt8>) -> Verdict {
    if scanner.scan(record) != nil { return .invalid }
    var best = -1
    var bestScore = 0
    for candidate in candidates.indices {
      let fits = requirements[candidate].allSatisfy { options in options.contains { matches($0, candidate) } }
      guard fits else { continue }
      let score = usage.indices.filter { matches($0, candidate) }.count
      if best < 0 || score > bestScore {
        best = candidate
        bestScore = score
      }
    }
    return best < 0 ? .unfit : .schema(index: best)
  }

  /// The candidate a JSON object that is valid for none comes nearest to,
  /// and the required fields it lacks (absent, or an object where the
  /// candidate reads a value, or the reverse): the candidate lacking the
  /// fewest, provided the record has at least two of its required fields and
  /// lacks at most two (a tie goes to the earlier candidate). `nil` for
  /// invalid JSON, a record some candidate fits, or one near none — an
  /// unrelated object (`package.json`) is not said to be "nearly" a bank export.
  /// For the end-of-run diagnosis only (it allocates).
  func nearest(for record: UnsafeBufferPointer<UInt8>) -> (index: Int, missing: [CanonicalField])? {
    if scanner.scan(record) != nil { return nil }
    var nearest: (index: Int, missing: [CanonicalField])?
    for candidate in candidates.indices {
      var missing: [CanonicalField] = []
      for (requirement, options) in requirements[candidate].enumerated()
      where !options.contains(where: { matches($0, candidate) }) {
        missing.append(requiredFields[candidate][requirement])
      }
      if missing.isEmpty { return nil }
      let present = requirements[candidate].count - missing.count
      guard present >= 2, missing.count <= 2 else { continue }
      if nearest == nil || missing.count < nearest?.missing.count ?? Int.max { nearest = (candidate, missing) }
    }
    return nearest
  }

  /// The first record of a chunk that decides, and how many records come
  /// before it in the chunk; `nil` when none does.
  func decision(in chunk: RecordChunk, maxRecordBytes: Int) -> (index: Int, before: Int)? {
    var found: (index: Int, before: Int)?
    var seen = 0
    _ = chunk.forEachRecord(maxRecordBytes: maxRecordBytes) { record in
      guard found == nil else { return }
      if record.framing.problem == .none, case .schema(let index) = verdict(for: record.bytes) {
        found = (index, seen)
      }
      seen += 1
    }
    return found
  }
}
