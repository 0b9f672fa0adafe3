import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte sources: plain files, gzip (single, multi-member, damaged), detection
/// by content, and the gzip writer used to make fixtures.
///
/// A class so that each test's temporary files go when the test does.
@Suite final class InputTests {
  /// This test's temporary directory, removed in deinit.
  private let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("TxFoldInputTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }

  // MARK: - Fixtures

  /// A fresh directory inside this test's directory.
  private func makeDirectory() throws -> URL {
    let url = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes `bytes` to a new file named `name` and returns its path.
  private func writeFile(_ bytes: [UInt8], named name: String = "input") throws -> String {
    let url = try makeDirectory().appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// JSON-lines-looking text mixed with pseudo-random bytes, so that it
  /// compresses into several deflate blocks and is not all one pattern.
  private static func sampleBytes(count: Int, seed: UInt64 = 42) -> [UInt8] {
    CompressibleSample.bytes(count: count, state: seed, noteCycle: 23)
  }

  /// `content` compressed by `GzipFileWriter` as one gzip member.
  private func gzip(_ content: [UInt8], level: Int32 = 6) throws -> [UInt8] {
    let url = try makeDirectory().appendingPathComponent("member.gz")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw FixtureError(message: "cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let writer = try GzipFileWriter(fileDescriptor: handle.fileDescriptor, name: url.path, level: level)
    try writer.write(content)
    try writer.finish()
    return try Array(Data(contentsOf: url))
  }

  /// Reads `source` to its end through a buffer of `bufferSize` bytes.
  private static func readAll(_ source: any ByteSource, bufferSize: Int) throws(InputError) -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    var result: [UInt8] = []
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { return result }
      result += buffer[0..<count]
    }
  }

  /// Opens `path` with content detection and reads it all.
  private static func readAll(path: String, bufferSize: Int = 4096) throws(InputError) -> [UInt8] {
    try readAll(InputOpener.open(path: path), bufferSize: bufferSize)
  }

  /// BGZF's end-of-file marker: an empty gzip member with an extra field
  /// (SAM/BAM specification, section 4.1.2).
  private static let bgzfEOFBlock: [UInt8] = [
    0x1f, 0x8b, 0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x06, 0x00, 0x42, 0x43,
    0x02, 0x00, 0x1b, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  ]

  // MARK: - Plain files

  @Test("A plain file is read whole through any buffer size", arguments: [1, 7, 4096, 1 << 20])
  func plainFileReadWhole(bufferSize: Int) throws {
    let content = Self.sampleBytes(count: 300_000)
    let path = try writeFile(content)
    let source = try FileSource.open(path: path)
    #expect(source.name == path)
    #expect(source.storedSize == Int64(content.count))
    let read = try Self.readAll(source, bufferSize: bufferSize)
    #expect(read == content)
    #expect(source.storedBytesRead == Int64(content.count))
    // The end stays the end.
    #expect(try Self.readAll(source, bufferSize: bufferSize).isEmpty)
  }

  @Test("Detection passes a plain file through unchanged", arguments: [1, 7, 4096, 1 << 20])
  func plainFileThroughOpener(bufferSize: Int) throws {
    let content = Self.sampleBytes(count: 100_000)
    let path = try writeFile(content)
    let source = try InputOpener.open(path: path)
    #expect(!(source is GzipSource))
    #expect(try Self.readAll(source, bufferSize: bufferSize) == content)
    #expect(source.storedBytesRead == Int64(content.count))
  }

  @Test("A plain file named .gz is read as plain text")
  func plainFileNamedGz() throws {
    let content = Array("{\"id\":\"1\"}\n".utf8)
    let path = try writeFile(content, named: "x.gz")
    let source = try InputOpener.open(path: path)
    #expect(!(source is GzipSource))
    #expect(try Self.readAll(source, bufferSize: 4096) == content)
  }

  @Test("An empty file is an empty plain input")
  func emptyFile() throws {
    let path = try writeFile([])
    let source = try InputOpener.open(path: path)
    #expect(!(source is GzipSource))
    #expect(source.storedSize == 0)
    #expect(try Self.readAll(source, bufferSize: 7).isEmpty)
  }

  @Test("A single 1f byte is plain: the gzip magic needs both bytes")
  func loneMagicByteIsPlain() throws {
    let path = try writeFile([0x1f])
    #expect(try Self.readAll(path: path) == [0x1f])
  }

  @Test("A missing file cannot be opened, with the system's reason")
  func missingFile() throws {
    let path = try makeDirectory().appendingPathComponent("absent.jsonl").path
    #expect(throws: InputError.cannotOpen(path: path, reason: "No such file or directory")) {
      _ = try InputOpener.open(path: path)
    }
  }

  @Test("A directory cannot be opened")
  func directory() throws {
    let path = try makeDirectory().path
    #expect(throws: InputError.cannotOpen(path: path, reason: "is a directory")) {
      _ = try InputOpener.open(path: path)
    }
  }

  @Test("A descriptor is read with detection, e.g. gzip arriving through a pipe")
  func pipeDescriptor() throws {
    let content = Self.sampleBytes(count: 200_000)
    let compressed = try gzip(content)
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    // Pipes hold about 64 KiB, so the writer needs its own thread.
    let writer = Thread {
      compressed.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
          let written = write(writeEnd, base + offset, raw.count - offset)
          if written <= 0 { break }
          offset += written
        }
      }
      close(writeEnd)
    }
    writer.start()
    let source = try InputOpener.open(fileDescriptor: readEnd, name: "-", closeOnDeinit: true)
    #expect(source.name == "-")
    #expect(source.storedSize == nil)
    #expect(source is GzipSource)
    #expect(try Self.readAll(source, bufferSize: 4096) == content)
  }

  // MARK: - Gzip

  @Test("Gzip written by GzipFileWriter reads back identically", arguments: [1, 7, 4096, 1 << 20])
  func gzipRoundTrip(bufferSize: Int) throws {
    let content = Self.sampleBytes(count: 300_000)
    let compressed = try gzip(content)
    #expect(compressed.count < content.count)
    let path = try writeFile(compressed, named: "dump.jsonl.gz")
    let source = try InputOpener.open(path: path)
    #expect(source is GzipSource)
    #expect(source.storedSize == Int64(compressed.count))
    #expect(try Self.readAll(source, bufferSize: bufferSize) == content)
    #expect(source.storedBytesRead == Int64(compressed.count))
  }

  @Test("Every compression level round-trips", arguments: [0, 1, 9] as [Int32])
  func gzipLevels(level: Int32) throws {
    let content = Self.sampleBytes(count: 50_000)
    let path = try writeFile(gzip(content, level: level))
    #expect(try Self.readAll(path: path) == content)
  }

  @Test("Multi-member gzip, ending with a BGZF EOF block, gives all members' content")
  func multiMember() throws {
    let first = Self.sampleBytes(count: 70_000, seed: 1)
    let second = Self.sampleBytes(count: 90_000, seed: 2)
    let joined = try gzip(first) + gzip([]) + gzip(second) + Self.bgzfEOFBlock
    let path = try writeFile(joined)
    for bufferSize in [1, 7, 4096, 1 << 20] {
      #expect(try Self.readAll(path: path, bufferSize: bufferSize) == first + second)
    }
  }

  /// Each exported file begins with a byte-order mark; their gzip members concatenated put the
  /// second one's at the start of a line, where it used to reject that member's first record.
  @Test("gzip members that each begin with a byte-order mark: every record accepted")
  func membersWithByteOrderMarks() throws {
    let bom: [UInt8] = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2]
    let members = try (1...3).map { member in
      try gzip(
        bom + Array((backbaseRecord(id: "\"\(member)a\"") + "\n" + backbaseRecord(id: "\"\(member)b\"") + "\n").utf8))
    }
    let path = try writeFile(members.joined().map { $0 }, named: "exports.jsonl.gz")
    var rejected: [RecordRejection] = []
    let pipeline = GroupPipeline(options: GroupOptions())
    pipeline.onRejection = { rejected.append($0) }
    let report = try pipeline.run(paths: [path])
    #expect(report.stats.accepted == 6)
    #expect(rejected.map(\.message) == [])
  }

  @Test(
    "Member boundaries falling anywhere in the input buffer, with 1-byte reads below",
    arguments: [16, 17, 18, 19, 31, 100]
  )
  func multiMemberSmallBuffers(inputCapacity: Int) throws {
    let first = Self.sampleBytes(count: 3_000, seed: 3)
    let second = Self.sampleBytes(count: 2_000, seed: 4)
    let joined = try gzip(first) + Self.bgzfEOFBlock + gzip(second) + Self.bgzfEOFBlock
    for chunk in [1, 2, 3, 1 << 20] {
      let source = try GzipSource(wrapping: ChunkedSource(joined, chunk: chunk), inputCapacity: inputCapacity)
      #expect(try Self.readAll(source, bufferSize: 5) == first + second)
    }
  }

  @Test("Detection gathers the magic from a source that gives one byte at a time")
  func detectionFromTrickle() throws {
    let content = Self.sampleBytes(count: 10_000)
    let source = try InputOpener.detectCompression(ChunkedSource(gzip(content), chunk: 1))
    #expect(source is GzipSource)
    #expect(try Self.readAll(source, bufferSize: 4096) == content)
    let plain = try InputOpener.detectCompression(ChunkedSource(content, chunk: 1))
    #expect(try Self.readAll(plain, bufferSize: 4096) == content)
  }

  /// A valid prefix of a gzip stream is never an error for zlib (it just asks
  /// for more input), so every cut, even inside the 10-byte header or the
  /// 8-byte trailer, must be reported as truncated and not as corrupt.
  @Test("A gzip stream cut anywhere is truncated")
  func truncated() throws {
    let content = Self.sampleBytes(count: 100_000)
    let compressed = try gzip(content)
    let size = compressed.count
    // 2: magic only; 5: inside the header; 10: header only; then inside the
    // data, just before the trailer, inside the CRC, inside the length.
    for cut in [2, 5, 10, size / 2, size - 8, size - 5, size - 1] {
      let path = try writeFile(Array(compressed.prefix(cut)))
      for bufferSize in [1, 4096] {
        #expect(throws: InputError.gzipTruncated(path: path), "cut at \(cut) of \(size)") {
          _ = try Self.readAll(path: path, bufferSize: bufferSize)
        }
      }
    }
  }

  @Test("A second member cut short is truncated, even one byte in")
  func truncatedSecondMember() throws {
    let first = try gzip(Self.sampleBytes(count: 1_000))
    let second = try gzip(Self.sampleBytes(count: 1_000, seed: 9))
    for cut in [1, 2, 5, second.count - 1] {
      let path = try writeFile(first + second.prefix(cut))
      #expect(throws: InputError.gzipTruncated(path: path), "second member cut at \(cut)") {
        _ = try Self.readAll(path: path)
      }
    }
  }

  /// Damage applied to a valid member, and the reason expected; zlib's own
  /// messages are quoted where zlib finds the damage.
  static let damages: [(name: String, damage: @Sendable ([UInt8]) -> [UInt8], reason: String)] = [
    ("flipped CRC byte", { flipping($0, at: $0.count - 8) }, "incorrect data check"),
    ("flipped length byte", { flipping($0, at: $0.count - 1) }, "incorrect length check"),
    ("unknown method", { replacing($0, at: 2, with: 0x07) }, "unknown compression method"),
    ("reserved flag bits", { replacing($0, at: 3, with: 0xe0) }, "unknown header flags set"),
    ("trailing text", { $0 + Array("hello\n".utf8) }, "trailing data after gzip member"),
    ("one trailing byte", { $0 + [0x0a] }, "trailing data after gzip member"),
    ("trailing zero padding", { $0 + [UInt8](repeating: 0, count: 512) }, "trailing data after gzip member"),
    ("half a magic, then other", { $0 + [0x1f, 0x00, 0x00] }, "trailing data after gzip member"),
  ]

  @Test("Damaged gzip is corrupt, with the reason", arguments: damages.indices)
  func corrupt(index: Int) throws {
    let (name, damage, reason) = Self.damages[index]
    let compressed = try gzip(Self.sampleBytes(count: 20_000))
    let path = try writeFile(damage(compressed))
    for bufferSize in [1, 4096] {
      #expect(throws: InputError.gzipCorrupt(path: path, reason: reason), "\(name)") {
        _ = try Self.readAll(path: path, bufferSize: bufferSize)
      }
    }
  }

  @Test("A failed gzip source keeps failing instead of looking finished")
  func failureIsSticky() throws {
    let compressed = try gzip(Self.sampleBytes(count: 1_000)) + [0x00]
    let source = try InputOpener.open(path: writeFile(compressed))
    #expect(throws: InputError.self) { _ = try Self.readAll(source, bufferSize: 4096) }
    #expect(throws: InputError.self) { _ = try Self.readAll(source, bufferSize: 4096) }
  }

  @Test("A 200 MB run of zeros streams through a 64 KiB buffer")
  func smallBomb() throws {
    let total = 200_000_000
    let url = try makeDirectory().appendingPathComponent("zeros.gz")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    let writer = try GzipFileWriter(fileDescriptor: handle.fileDescriptor, name: url.path, level: 9)
    let block = [UInt8](repeating: 0, count: 1_000_000)
    for _ in 0..<(total / block.count) { try writer.write(block) }
    try writer.finish()
    try handle.close()

    let source = try InputOpener.open(path: url.path)
    let compressedSize = try #require(source.storedSize)
    // Deflate's best ratio is about 1000:1, so a few hundred KB hold it all.
    #expect(compressedSize < 1_000_000)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { buffer.deallocate() }
    let base = try #require(buffer.baseAddress)
    let zeros = UnsafeMutableRawPointer.allocate(byteCount: buffer.count, alignment: 1)
    zeros.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
    defer { zeros.deallocate() }
    var count = 0
    var nonZeroReads = 0
    while true {
      let read = try source.read(into: buffer)
      if read == 0 { break }
      count += read
      // memcmp, because a byte loop over 200 MB is slow in a debug build.
      if memcmp(zeros, base, read) != 0 { nonZeroReads += 1 }
    }
    #expect(count == total)
    #expect(nonZeroReads == 0)
    #expect(source.storedBytesRead == compressedSize)
  }

  // MARK: - Writer errors

  @Test("An out-of-range compression level is refused")
  func badLevel() {
    #expect(throws: OutputError.self) { _ = try GzipFileWriter(fileDescriptor: 1, level: 12) }
  }

  @Test("Writing to a pipe without a reader is a broken pipe")
  func brokenPipe() throws {
    // Without this the write would raise SIGPIPE and end the test process.
    signal(SIGPIPE, SIG_IGN)
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])
    defer { close(ends[1]) }
    let writer = try GzipFileWriter(fileDescriptor: ends[1], name: "-")
    // deflate writes the gzip header on its first call, so the error may come
    // from write or, at the latest, from finish.
    let error = try #require(throws: OutputError.self) {
      try writer.write(Self.sampleBytes(count: 1_000))
      try writer.finish()
    }
    #expect(error.isBrokenPipe)
    #expect(error.path == "-")
  }

  @Test("Other write errors are not broken pipes and carry the system's reason")
  func badDescriptor() throws {
    let writer = try GzipFileWriter(fileDescriptor: -1, name: "out.gz")
    let error = try #require(throws: OutputError.self) { try writer.finish() }
    #expect(!error.isBrokenPipe)
    #expect(error.description == "Write error in 'out.gz': Bad file descriptor.")
  }
}

// MARK: - Helpers

/// A fixture could not be made.
private struct FixtureError: Error {
  var message: String
}

/// Serves fixed bytes at most `chunk` at a time, like a slow pipe.
private final class ChunkedSource: ByteSource {
  let bytes: [UInt8]
  let chunk: Int
  var offset = 0
  var name: String { "chunked" }
  var storedBytesRead: Int64 { Int64(offset) }
  var storedSize: Int64? { nil }

  init(_ bytes: [UInt8], chunk: Int) {
    self.bytes = bytes
    self.chunk = chunk
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let count = min(chunk, buffer.count, bytes.count - offset)
    for index in 0..<count { buffer[index] = bytes[offset + index] }
    offset += count
    return count
  }
}

private func flipping(_ bytes: [UInt8], at index: Int) -> [UInt8] {
  var copy = bytes
  copy[index] ^= 0xff
  return copy
}

private func replacing(_ bytes: [UInt8], at index: Int, with value: UInt8) -> [UInt8] {
  var copy = bytes
  copy[index] = value
  return copy
}
