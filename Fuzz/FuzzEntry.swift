// Compiled in one module with the library sources (see build.sh), so no import.

/// One fuzz input exercises both layers: the record scanner and decoder on the
/// bytes as one record, and the whole pipeline (gzip detection, line framing
/// with a tiny chunk size, decoding, folding, rendering) on the bytes as a dump.
/// Any crash, hang, sanitizer report or broken invariant is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: size % 2 == 0)
  _ = decoder.decode(bytes)

  // The token-index fast path must agree with the byte state machine on every input:
  // the same verdict, reason, offset and slots.
  if size > 0 {
    let trie = RecordSchema.backbase.trie
    let fast = RecordScanner(trie: trie, allowTrailingCommas: size % 2 == 0, kernel: .best)
    let reference = RecordScanner(trie: trie, allowTrailingCommas: size % 2 == 0, kernel: .byteAtATime)
    let fastFailure = fast.scan(bytes)
    let referenceFailure = reference.scan(bytes)
    if fastFailure != referenceFailure
      || (fastFailure == nil && (0..<trie.slotCount).contains { fast.value($0) != reference.value($0) })
    {
      fatalError("token index and byte scanner disagree")
    }
  }

  var options = GroupOptions()
  options.threads = 1 + size % 2
  options.chunkSize = 1 + size % 61
  options.maxRecordBytes = 256
  options.memberLimit = size % 4
  options.dedupe = size % 3 == 0
  let pipeline = GroupPipeline(options: options)
  var rejected = 0
  pipeline.onRejection = { _ in rejected += 1 }
  if let report = try? pipeline.run(sources: [FuzzSource(Array(bytes), step: 1 + size % 17)]) {
    // The accounting invariant must hold for every input.
    if report.stats.lines != report.stats.accepted + report.stats.rejected || report.stats.rejected != rejected {
      fatalError("lines != accepted + rejected")
    }
    for format in ReportFormat.allCases { _ = ReportRenderer.renderToBytes(report, format: format) }
  }
  return 0
}

/// Hands out the input a few bytes at a time, to move every chunk boundary.
final class FuzzSource: ByteSource {
  let bytes: [UInt8]
  let step: Int
  var position = 0
  init(_ bytes: [UInt8], step: Int) {
    self.bytes = bytes
    self.step = step
  }
  var name: String { "fuzz" }
  var storedBytesRead: Int64 { Int64(position) }
  var storedSize: Int64? { Int64(bytes.count) }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let count = min(buffer.count, step, bytes.count - position)
    guard count > 0, let target = buffer.baseAddress else { return 0 }
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress { target.copyMemory(from: base + position, byteCount: count) }
    }
    position += count
    return count
  }
}
