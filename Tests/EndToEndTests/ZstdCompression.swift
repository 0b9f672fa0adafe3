import CZstd

/// `bytes` as one zstd frame with a checksum, compressed in-process by libzstd (level 3), so the
/// tests need no `zstd` tool; `nil` only if libzstd fails, which it does not on these inputs.
func zstdCompressed(_ bytes: [UInt8]) -> [UInt8]? {
  var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
  guard let context = ZSTD_createCCtx() else { return nil }
  defer { ZSTD_freeCCtx(context) }
  guard ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)) == 0 else { return nil }
  let size = output.withUnsafeMutableBytes { out in
    bytes.withUnsafeBytes { input in
      ZSTD_compress2(context, out.baseAddress, out.count, input.baseAddress, input.count)
    }
  }
  guard ZSTD_isError(size) == 0 else { return nil }
  return Array(output.prefix(size))
}
