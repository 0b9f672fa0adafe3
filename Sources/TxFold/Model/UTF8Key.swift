/// A string compared and hashed by its UTF-8 bytes: the key of a dictionary
/// or set of ids, accounts, states or currencies, which TxFold compares
/// byte-wise everywhere (the fold, the sorts, the partials).
///
/// Swift's `String` equality is Unicode canonical equivalence: `"caf\u{E9}"`
/// (é as one scalar) equals `"cafe\u{301}"` (e and a combining accent), so a
/// `[String: …]` would make one account, id or state of two that the reader
/// and every machine format keep apart.
struct UTF8Key: Hashable, Sendable {
  /// The string, exactly as read.
  let string: String

  init(_ string: String) { self.string = string }

  /// Whether the two strings are the same bytes.
  static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }

  /// Hashes the bytes, so that `==` and hashing agree.
  func hash(into hasher: inout Hasher) {
    hasher.combine(string.utf8.count)
    for byte in string.utf8 { hasher.combine(byte) }
  }
}
