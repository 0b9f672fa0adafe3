// Target 11 (`;`): zstd input. Compiled into the library's module (see build.sh).
import Foundation

/// The most bytes a zstd input is decompressed to per read pattern: a small bomb found by the
/// fuzzer must not make a run slow; what comes before the cap is still compared.
private let zstdFuzzOutputCap = 8 << 20

/// Reads `bytes` through `ZstdSource` (`step` bytes per read from below, an input buffer of
/// `capacity`, reads of `bufferSize`), up to the cap: the bytes and how it ended (`nil` for the
/// end of the input or the cap).
private func zstdFuzzRead(_ bytes: [UInt8], step: Int, capacity: Int, bufferSize: Int) -> ([UInt8], InputError?) {
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
  defer { buffer.deallocate() }
  var result: [UInt8] = []
  do throws(InputError) {
    let source = try ZstdSource(wrapping: FuzzSource(bytes, step: step), inputCapacity: capacity)
    while result.count < zstdFuzzOutputCap {
      let count = try source.read(into: buffer)
      if count > bufferSize { fuzzFailure("zstd read \(count) bytes into a buffer of \(bufferSize)") }
      if count == 0 {
        if source.storedBytesRead != Int64(bytes.count) {
          fuzzFailure("zstd ended after \(source.storedBytesRead) of \(bytes.count) bytes")
        }
        // The end stays the end.
        if (try? source.read(into: buffer)) != 0 { fuzzFailure("zstd read again after its end") }
        return (result, nil)
      }
      result += buffer[0..<count]
    }
    return (Array(result.prefix(zstdFuzzOutputCap)), nil)
  } catch {
    switch error {
    case .zstdCorrupt, .zstdTruncated: break
    case .readFailed(_, let reason) where reason.contains("out of memory"): break
    default: fuzzFailure("zstd failed with an error of another kind: \(error)")
    }
    return (result, error)
  }
}

/// What kind of end a read came to: the end, a truncated stream, a corrupt one, or another error.
private func zstdErrorKind(_ error: InputError?) -> String {
  switch error {
  case nil: return "end"
  case .zstdTruncated?: return "truncated"
  case .zstdCorrupt?: return "corrupt"
  case let other?: return "\(other)"
  }
}

/// A zstd stream (the payload, behind the magic number when it lacks one): read in large reads
/// and in tiny ones — the same bytes (up to the cap; before an error, one a prefix of the other)
/// and the same kind of error, whatever the reads' sizes; only zstd errors; the input read to its very end on success; and through the whole
/// pipeline, the accounting identity.
@Sendable func fuzzZstd(_ payload: [UInt8]) {
  let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
  let isSkippable = payload.count >= 4 && payload[0] & 0xF0 == 0x50 && payload[1...3] == [0x2A, 0x4D, 0x18]
  let stream = payload.starts(with: magic) || isSkippable ? payload : magic + payload
  let knob = fuzzKnob(payload, 97)
  let (large, largeError) = zstdFuzzRead(
    stream, step: 1 << 20, capacity: ZstdSource.defaultInputCapacity, bufferSize: 65_536)
  let (small, smallError) = zstdFuzzRead(stream, step: 1 + knob % 7, capacity: 16 + knob % 5, bufferSize: 1 + knob % 13)
  let compared = min(large.count, small.count, zstdFuzzOutputCap)
  if large.prefix(compared) != small.prefix(compared) {
    fuzzFailure("zstd gave other bytes for other read sizes")
  }
  if large.count < zstdFuzzOutputCap && small.count < zstdFuzzOutputCap {
    // Before an error the counts may differ: with the whole frame in and room for all of it,
    // libzstd decodes it in one call and reports a bad checksum with nothing handed out, where
    // small reads hand out every block first. The error must be the same.
    if largeError == nil && smallError == nil && large.count != small.count {
      fuzzFailure("zstd gave \(large.count) bytes in large reads, \(small.count) in small")
    }
    // libzstd's reason may differ with the path (one call for a whole frame, or block by block:
    // "Data corruption detected" against "more data than the frame header declares"); the kind
    // of error may not.
    if zstdErrorKind(largeError) != zstdErrorKind(smallError) {
      fuzzFailure(
        "zstd ended with \(String(describing: largeError)) in large reads, \(String(describing: smallError)) in small")
    }
  }
  // The whole pipeline over the same stream: detected as zstd, and every line accounted for.
  guard large.count < 1 << 20 else { return }
  var options = GroupOptions()
  options.threads = 1
  options.read.limits.chunkSize = 64 + knob
  do {
    let source = try InputOpener.detectCompression(FuzzSource(stream, step: 1 + knob % 11))
    if !(source is ZstdSource) { fuzzFailure("a zstd stream was not detected as zstd") }
    let report = try GroupPipeline(options: options).run(sources: [source])
    if largeError != nil { fuzzFailure("the pipeline read a zstd stream that the source refuses") }
    if report.stats.lines != report.stats.accepted + report.stats.rejected {
      fuzzFailure("lines \(report.stats.lines) != accepted + rejected")
    }
    if report.stats.bytesDecoded != Int64(large.count) {
      fuzzFailure("the pipeline decoded \(report.stats.bytesDecoded) bytes, the source gives \(large.count)")
    }
  } catch {
    // Refused: the stream is damaged, or its content is cut off inside a record.
  }
}
