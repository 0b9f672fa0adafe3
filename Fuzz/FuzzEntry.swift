// Compiled in one module with the library sources (see build.sh), so no import of TxFold:
// internal API (the TZif and POSIX-rule parsers) is reachable, and nothing here needs `@testable`.
import Foundation

/// The fuzz targets, picked by the first byte of each input (its low four bits,
/// modulo the count, so that the ASCII digits `0`…`9` name targets 0…9, `:` target 10, `;` 11,
/// `<` 12, `=` 13, `>` 14, and every byte still picks one). The rest of the input is the target's payload.
///
/// Every target checks invariants, not just "no crash": a broken one calls
/// `fuzzFailure`, which traps so that libFuzzer saves the input as a crash.
let fuzzTargets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
  ("scan", fuzzScanner),  // 0: the scanner's fast path against its byte state machine
  ("group", fuzzGroup),  // 1: the whole pipeline; accounting, 1 vs 2 threads
  ("spill", fuzzSpill),  // 2: --per-account with a tiny memory limit against no spill
  ("partial", fuzzPartialFile),  // 3: a (mutated) partial through the merger
  ("partial-run", fuzzPartialRun),  // 4: a dump's partial merges back to its run
  ("account-partial", fuzzAccountPartialFile),  // 5: a (mutated) per-account partial
  ("account-partial-run", fuzzAccountPartialRun),  // 6: a dump's per-account partial merges back
  ("tzif", fuzzTZif),  // 7: a (mutated) TZif file, then records in that zone
  ("posix-rule", fuzzPOSIXRule),  // 8: a POSIX TZ rule, alone and as a TZif footer
  ("zone-records", fuzzZoneRecords),  // 9: a dump under several zones against dates as written
  ("outputs", fuzzOutputs),  // 10 (`:`): every kind of output target, committed, discarded or taken back
  ("zstd", fuzzZstd),  // 11 (`;`): a zstd stream read in large and tiny reads, then through the pipeline
  ("dedupe", fuzzDedupe),  // 12 (`<`): --dedupe, spilled or not, against the latest per id grouped in memory
  ("state", fuzzState),  // 13 (`=`): a nightly state: night 2 against dedupe, then every damage refused
  ("account-queries", fuzzAccountQueries),  // 14 (`>`): list and summary --per-account on every core against one by one
]

/// libFuzzer calls this once per input: the first byte picks the target, the rest is its payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let selector = bytes.first else { return 0 }
  let target = fuzzTargets[Int(selector & 0x0F) % fuzzTargets.count]
  target.run(Array(bytes.dropFirst()))
  return 0
}

/// Reports a broken invariant: a trap, which libFuzzer records as a crash with the input.
func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError("fuzz invariant broken: \(message)", file: file, line: line)
}

/// A regular file's bytes, or `nil` when it cannot be opened or read (never a FIFO: the open
/// would wait for a writer). Read with `read(2)` rather than
/// `FileManager.contents(atPath:)`, whose buffer for an empty file LeakSanitizer reports as leaked
/// (swift-corelibs-foundation of Swift 6.3.1), which would stop a campaign on the harness itself.
func fuzzReadFile(_ path: String) -> [UInt8]? {
  let descriptor = SystemCalls.openFile(path, .readOnly)
  guard descriptor >= 0 else { return nil }
  defer { SystemCalls.closeDescriptor(descriptor) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = buffer.withUnsafeMutableBytes { raw in
      raw.baseAddress.map { SystemCalls.readBytes(descriptor, into: $0, count: raw.count) } ?? -1
    }
    if count < 0 { return nil }
    if count == 0 { return bytes }
    bytes += buffer[..<count]
  }
}

/// A small number taken from the payload, so that one input always runs with the
/// same settings (the fuzzer can then reproduce and minimise it).
func fuzzKnob(_ bytes: [UInt8], _ modulus: Int) -> Int {
  var hash: UInt64 = 14_695_981_039_346_656_037
  for byte in bytes.prefix(64) { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
  return Int(hash % UInt64(max(1, modulus)))
}

/// Where the test fixtures are, found from this file's path (build.sh passes it absolute).
let fuzzRepositoryRoot: String = {
  let file = "\(#filePath)"
  let fuzzFolder = (file as NSString).deletingLastPathComponent
  return (fuzzFolder as NSString).deletingLastPathComponent
}()

/// Collects what a writer flushes.
final class ByteCollector {
  var bytes: [UInt8] = []
  func flush(_ chunk: inout [UInt8]) {
    bytes += chunk
    chunk.removeAll(keepingCapacity: true)
  }
}

/// Hands out the input a few bytes at a time, to move every buffer boundary.
final class FuzzSource: ByteSource {
  let bytes: [UInt8]
  let step: Int
  let name: String
  var position = 0
  init(_ bytes: [UInt8], step: Int, name: String = "fuzz") {
    self.bytes = bytes
    self.step = max(1, step)
    self.name = name
  }
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
