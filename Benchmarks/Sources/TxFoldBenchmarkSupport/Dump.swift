#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
@_spi(Benchmarks) import TxFold
import TxFoldGen

/// A generated Backbase dump held in memory: the input of every benchmark.
///
/// Built in a benchmark's `setup`, outside the measurement, with the library's own
/// `TransactionGenerator` (the bytes `txfold gen --count N --seed S` writes), so every stage
/// sees the same realistic variety: escapes, raw UTF-8, unknown nested fields, shuffled keys.
public final class Dump: Sendable {
  /// The number of records (lines).
  public let records: Int
  /// The JSON lines, each ending in `\n`.
  public let bytes: [UInt8]
  /// `lineStarts[i]` is where record `i` begins; `lineStarts[records]` is `bytes.count`.
  /// Record `i` is `lineStarts[i] ..< lineStarts[i + 1] - 1` (without its newline).
  public let lineStarts: [Int]

  /// Generates `records` records from `seed`.
  public init(records: Int, seed: UInt64 = 7) {
    var bytes: [UInt8] = []
    // A generated record is about 430 bytes.
    bytes.reserveCapacity(records * 450)
    TransactionGenerator(options: GeneratorOptions(count: records, seed: seed)).generate { chunk in
      bytes.append(contentsOf: chunk)
    }
    var starts: [Int] = [0]
    starts.reserveCapacity(records + 1)
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(index + 1)
    }
    precondition(starts.count == records + 1, "expected \(records) lines, found \(starts.count - 1)")
    self.records = records
    self.bytes = bytes
    self.lineStarts = starts
  }

  /// The size of the dump in bytes (newlines included).
  public var byteCount: Int { bytes.count }

  /// Calls `body` with each record in order (without its newline) and its index; returns how
  /// many calls returned `true`. The records are views into `bytes`: nothing is copied.
  @inlinable
  public func count(where body: (UnsafeBufferPointer<UInt8>, Int) -> Bool) -> Int {
    bytes.withUnsafeBufferPointer { bytes in
      lineStarts.withUnsafeBufferPointer { starts in
        var matches = 0
        for index in 0..<records
        where body(UnsafeBufferPointer(rebasing: bytes[starts[index]..<starts[index + 1] - 1]), index) {
          matches += 1
        }
        return matches
      }
    }
  }

  /// The dump compressed as `txfold gen --gzip` writes it (zlib level 6), through a temporary file.
  public func gzipped() -> [UInt8] {
    var template = Array("/tmp/txfold-bench-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { name in
      name.baseAddress.map { mkstemp($0) } ?? -1
    }
    precondition(descriptor >= 0, "cannot create a temporary file")
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
      close(descriptor)
      unlink(path)
    }
    do {
      let writer = try GzipFileWriter(fileDescriptor: descriptor, name: path)
      try writer.write(bytes)
      try writer.finish()
    } catch {
      fatalError("gzip failed: \(error)")
    }
    let size = Int(lseek(descriptor, 0, SEEK_END))
    var compressed = [UInt8](repeating: 0, count: size)
    let read = compressed.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, 0) }
    precondition(read == size, "short read of the gzip file")
    return compressed
  }
}
