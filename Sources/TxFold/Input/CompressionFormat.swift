/// Compression formats recognised by their first bytes (their magic numbers).
///
/// gzip and zstd are read (`GzipSource`, `ZstdSource`). The others are
/// recognised so that a compressed dump is refused with the command that
/// decompresses it, rather than read as text whose every line is rejected.
/// The file name plays no part.
package enum CompressionFormat: String, Sendable, Hashable, CaseIterable {
  case gzip
  case bzip2
  case xz
  case zstd
  case zip
  case lz4

  /// The most bytes `detect(_:)` looks at.
  static let longestMagic = 6

  /// The format whose magic number `prefix` starts with, or `nil` for
  /// anything else (plain text).
  static func detect(_ prefix: [UInt8]) -> CompressionFormat? {
    func starts(_ magic: [UInt8]) -> Bool { prefix.count >= magic.count && prefix.starts(with: magic) }
    if starts([0x1F, 0x8B]) { return .gzip }
    // `BZh` and the block size, a digit 1–9.
    if starts([0x42, 0x5A, 0x68]), prefix.count >= 4, (0x31...0x39).contains(prefix[3]) { return .bzip2 }
    if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
    if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
    // A zstd skippable frame (`50`–`5F 2A 4D 18`): metadata a zstd stream may begin with.
    if prefix.count >= 4, prefix[0] & 0xF0 == 0x50, prefix[1] == 0x2A, prefix[2] == 0x4D, prefix[3] == 0x18 {
      return .zstd
    }
    // A local file header, an empty archive's end record, or a spanned archive's marker.
    if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) || starts([0x50, 0x4B, 0x07, 0x08]) {
      return .zip
    }
    if starts([0x04, 0x22, 0x4D, 0x18]) { return .lz4 }
    return nil
  }

  /// Whether TxFold reads this format (gzip and zstd) rather than refusing it.
  package var isRead: Bool { self == .gzip || self == .zstd }

  /// The command that writes the decompressed bytes to standard output.
  package var decompressCommand: String {
    switch self {
    case .gzip: return "gzip -dc"
    case .bzip2: return "bzip2 -dc"
    case .xz: return "xz -dc"
    case .zstd: return "zstd -dc"
    case .zip: return "unzip -p"
    case .lz4: return "lz4 -dc"
    }
  }
}
