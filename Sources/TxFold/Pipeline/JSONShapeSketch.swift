/// A rough look at the start of a JSON text, for the end-of-run diagnosis:
/// its top-level keys and the key path of the array of objects most likely to
/// hold its records (what `--items` would name). Tolerant: the text may be
/// cut anywhere or broken.
///
/// Runs only when a run accepted nothing, over at most the rejections'
/// sample; an explicit stack, never recursion.
struct JSONShapeSketch {
  /// The keys of the top-level object, in order (at most `keyLimit`).
  private(set) var topLevelKeys: [String] = []
  /// The dotted path, through objects only, of the array of objects that
  /// most likely holds the records (`data`, `result.items`): the first whose
  /// path names transactions, else the first — a bank API's answer often
  /// holds balances or accounts before them. `nil` when none was seen.
  var likelyRecordArray: String? { firstTransactionArray ?? firstArrayOfObjects }
  /// The first array whose first element is an object.
  private var firstArrayOfObjects: String?
  /// The first such array with `transaction` in a key of its path (any case).
  private var firstTransactionArray: String?
  /// The dotted path of the first array under objects only, whatever it holds: in a document's
  /// lines read as JSON lines, its elements' lines were accepted and are not in the sample.
  private(set) var firstArray: String?
  /// Open containers at the end of the text (0 when everything closed).
  private(set) var openContainers = 0

  static let keyLimit = 12
  static let depthLimit = 64

  init(_ bytes: [UInt8]) {
    // Per open container: whether it is an object, and the key it sits under.
    var isObject: [Bool] = []
    var keys: [String?] = []
    var pendingKey: String?
    var expectKey = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case .quote:
        var end = index + 1
        while end < bytes.count && bytes[end] != .quote { end += bytes[end] == .backslash ? 2 : 1 }
        let body = Array(bytes[(index + 1)..<min(end, bytes.count)])
        // As a JSON reader sees it (`"it\u0065ms"` is `items`), which is what `--items` matches.
        let text =
          body.withUnsafeBufferPointer(StringDecoder.decodeToString) ?? String(decoding: body, as: UTF8.self)
        if expectKey && isObject.last == true {
          pendingKey = text
          if isObject.count == 1 && topLevelKeys.count < Self.keyLimit { topLevelKeys.append(text) }
        } else {
          pendingKey = nil
        }
        expectKey = false
        index = end + 1
        continue
      case .openBrace, .openBracket:
        guard isObject.count < Self.depthLimit else { break }
        if byte == .openBracket, firstTransactionArray == nil, let key = pendingKey, isObject.allSatisfy({ $0 }) {
          let path = keys.dropFirst().compactMap { $0 } + [key]
          if !path.contains(where: { $0.isEmpty || $0.contains(".") }) {
            let dotted = path.joined(separator: ".")
            if firstArray == nil { firstArray = dotted }
            if Self.nextValueIsObject(bytes, after: index) {
              if firstArrayOfObjects == nil { firstArrayOfObjects = dotted }
              if path.contains(where: { $0.lowercased().contains("transaction") }) { firstTransactionArray = dotted }
            }
          }
        }
        isObject.append(byte == .openBrace)
        keys.append(pendingKey)
        pendingKey = nil
        expectKey = byte == .openBrace
      case .closeBrace, .closeBracket:
        if !isObject.isEmpty {
          isObject.removeLast()
          keys.removeLast()
        }
        pendingKey = nil
        expectKey = false
      case .comma:
        expectKey = isObject.last == true
        pendingKey = nil
      default:
        break
      }
      index += 1
    }
    openContainers = isObject.count
  }

  /// Whether the first non-blank byte after `index` opens an object.
  private static func nextValueIsObject(_ bytes: [UInt8], after index: Int) -> Bool {
    var next = index + 1
    while next < bytes.count && bytes[next].isJSONWhitespace { next += 1 }
    return next < bytes.count && bytes[next] == .openBrace
  }
}
