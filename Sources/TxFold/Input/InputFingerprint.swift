/// What identifies the input a partial state was folded from: its byte count
/// and a 64-bit hash of its bytes after decompression (XXH64, seed 0), so the
/// same dump gives the same fingerprint whether it was read plain or gzip at
/// any level. `txfold merge` refuses a non-empty input that comes in twice.
package struct InputFingerprint: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Bytes of the input after decompression.
  package var bytes: Int64
  /// XXH64 of those bytes.
  package var hash: UInt64

  /// Creates the fingerprint of an input of `bytes` bytes with XXH64 `hash`.
  package init(bytes: Int64, hash: UInt64) {
    self.bytes = bytes
    self.hash = hash
  }

  /// Orders fingerprints by size, then hash, so partial headers list them in a stable order.
  package static func < (lhs: InputFingerprint, rhs: InputFingerprint) -> Bool {
    (lhs.bytes, lhs.hash) < (rhs.bytes, rhs.hash)
  }

  /// The hash as 16 lower-case hexadecimal digits, as the partial format writes it.
  package var hashText: String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// `1562 bytes, xxh64 0123456789abcdef`, for messages.
  package var description: String { "\(bytes) bytes, xxh64 \(hashText)" }
}
