import Foundation
import Testing

@testable import TxFold

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// zstd input (`ZstdSource` over libzstd): the same checks as gzip's (`InputTests`,
/// `GzipBackendTests`) — every level, size, read and buffer size; frames, empty frames and
/// skippable frames one after another; a cut at every byte; damage with libzstd's reason;
/// hostile headers refused in bounded memory; a bomb streamed. Streams are made in-process by
/// libzstd (`ZstdFrames`), so the tests need no `zstd` tool.
@Suite struct ZstdSourceTests {
  static func sampleBytes(count: Int, seed: UInt64) -> [UInt8] {
    CompressibleSample.bytes(count: count, state: seed | 1, noteCycle: 29)
  }

  /// Reads `compressed` whole, `step` bytes per read from the source and `bufferSize` bytes per
  /// read from the zstd source.
  static func decompress(
    _ compressed: [UInt8], step: Int = .max, inputCapacity: Int = ZstdSource.defaultInputCapacity,
    bufferSize: Int = 4096
  ) -> Result<[UInt8], InputError> {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    do throws(InputError) {
      let source = try ZstdSource(wrapping: MemorySource(compressed, step: step), inputCapacity: inputCapacity)
      var result: [UInt8] = []
      while true {
        let count = try source.read(into: buffer)
        if count == 0 {
          #expect(source.storedBytesRead == Int64(compressed.count))
          return .success(result)
        }
        result += buffer[0..<count]
      }
    } catch {
      return .failure(error)
    }
  }

  // MARK: - Reading

  @Test("Every level, size, checksum choice and buffer size reads back")
  func roundTrip() throws {
    for size in [0, 1, 1_000, 300_000] {
      let content = Self.sampleBytes(count: size, seed: UInt64(size))
      for level: Int32 in [-5, 1, 3, 19] {
        for checksum in [true, false] {
          let compressed = try ZstdFrames.frame(content, level: level, checksum: checksum)
          // One-byte reads of the largest content would only make the test slow.
          for bufferSize in size > 1_000 ? [65_536, 1 << 20] : [1, 7, 65_536] {
            #expect(
              Self.decompress(compressed, bufferSize: bufferSize) == .success(content),
              "size \(size), level \(level), checksum \(checksum), buffer \(bufferSize)")
          }
        }
      }
    }
  }

  @Test("A streamed frame of many small blocks reads back through every small read and buffer")
  func streamedBlocks() throws {
    let content = Self.sampleBytes(count: 20_000, seed: 3)
    let compressed = try ZstdFrames.frame(content, flushEvery: 333)
    for step in [1, 2, 3, 5, 64, 1000] {
      for bufferSize in [1, 3, 4096] {
        #expect(
          Self.decompress(compressed, step: step, inputCapacity: 16, bufferSize: bufferSize) == .success(content),
          "step \(step), buffer \(bufferSize)")
      }
    }
  }

  @Test("A window's worth of history crosses every read, however small")
  func longDistancesAcrossReads() throws {
    // Repeats 200 KiB apart: matches reach back across blocks and many small output buffers.
    let unit = Self.sampleBytes(count: 200_000, seed: 5)
    let content = Array((0..<6).map { index in unit.map { $0 ^ UInt8(index & 1) } }.joined())
    let compressed = try ZstdFrames.frame(content, level: 19)
    #expect(compressed.count < content.count / 2)
    for bufferSize in [3_001, 131_072, 131_073, 1 << 20] {
      #expect(Self.decompress(compressed, bufferSize: bufferSize) == .success(content), "buffer \(bufferSize)")
    }
  }

  @Test("The opener detects a zstd frame and a leading skippable frame by content, from any trickle")
  func detection() throws {
    let content = Self.sampleBytes(count: 10_000, seed: 7)
    let frame = try ZstdFrames.frame(content)
    for stream in [frame, ZstdFrames.skippable(Array("seek table".utf8), variant: 14) + frame] {
      for step in [1, 2, 3, .max] {
        let source = try InputOpener.detectCompression(MemorySource(stream, step: step))
        #expect(source is ZstdSource)
        #expect(try InputTestsReader.readAll(source) == content)
      }
    }
    // Three bytes of the magic are plain text: the magic needs all four.
    let short = try InputOpener.detectCompression(MemorySource(Array(frame.prefix(3))))
    #expect(!(short is ZstdSource))
    #expect(try InputTestsReader.readAll(short) == Array(frame.prefix(3)))
    #expect(CompressionFormat.zstd.isRead)
    #expect(CompressionFormat.gzip.isRead)
    #expect(!CompressionFormat.xz.isRead)
  }

  @Test("A zstd file is read through the opener, and through a pipe")
  func fileAndPipe() throws {
    let content = Self.sampleBytes(count: 200_000, seed: 8)
    let compressed = try ZstdFrames.frame(content)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TxFoldZstd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The name plays no part: `.jsonl`, not `.zst`.
    let path = directory.appendingPathComponent("dump.jsonl").path
    try Data(compressed).write(to: URL(fileURLWithPath: path))
    let file = try InputOpener.open(path: path)
    #expect(file is ZstdSource)
    #expect(file.storedSize == Int64(compressed.count))
    #expect(try InputTestsReader.readAll(file) == content)
    #expect(file.storedBytesRead == Int64(compressed.count))
    try InputOpener.checkInput(path: path)

    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
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
    let piped = try InputOpener.open(fileDescriptor: readEnd, name: "-", closeOnDeinit: true)
    #expect(piped is ZstdSource)
    #expect(piped.storedSize == nil)
    #expect(try InputTestsReader.readAll(piped) == content)
  }

  // MARK: - Frames one after another

  /// Frames of known sizes, so that every cut point is known to be a boundary or not: a frame,
  /// an empty frame, a skippable frame, a streamed frame without checksum, an empty skippable
  /// frame, a level-19 frame.
  static func multiFrame() throws -> (stream: [UInt8], content: [UInt8], boundaries: [Int: [UInt8]]) {
    let first = sampleBytes(count: 700, seed: 11)
    let second = sampleBytes(count: 500, seed: 12)
    var stream: [UInt8] = []
    var content: [UInt8] = []
    var boundaries: [Int: [UInt8]] = [:]
    for (frame, plain) in [
      (try ZstdFrames.frame(first), first), (try ZstdFrames.frame([]), []),
      (ZstdFrames.skippable(Array("metadata".utf8), variant: 3), []),
      (try ZstdFrames.frame(second, checksum: false, flushEvery: 50), second),
      (ZstdFrames.skippable([], variant: 15), []), (try ZstdFrames.frame(first, level: 19), first),
    ] {
      stream += frame
      content += plain
      boundaries[stream.count] = content
    }
    return (stream, content, boundaries)
  }

  @Test("Concatenated, empty and skippable frames read as the concatenation of their contents")
  func concatenatedFrames() throws {
    let (stream, content, boundaries) = try Self.multiFrame()
    #expect(boundaries.count == 6)
    for step in [1, 2, 3, 7, .max] {
      for (capacity, bufferSize) in [(16, 1), (17, 5), (100, 4096), (ZstdSource.defaultInputCapacity, 4096)] {
        #expect(
          Self.decompress(stream, step: step, inputCapacity: capacity, bufferSize: bufferSize) == .success(content),
          "step \(step), capacity \(capacity), buffer \(bufferSize)")
      }
    }
    // A stream that is only skippable frames holds nothing.
    #expect(Self.decompress(ZstdFrames.skippable([1, 2, 3]) + ZstdFrames.skippable([])) == .success([]))
  }

  @Test("Cut at every byte: a frame boundary reads the frames before it, anything else is truncated")
  func everyCut() throws {
    let (stream, _, boundaries) = try Self.multiFrame()
    for cut in 0...stream.count {
      let prefix = Array(stream.prefix(cut))
      let expected: Result<[UInt8], InputError> =
        boundaries[cut].map { .success($0) } ?? .failure(.zstdTruncated(path: "memory"))
      #expect(Self.decompress(prefix) == expected, "cut at \(cut) of \(stream.count)")
      #expect(
        Self.decompress(prefix, step: 1, inputCapacity: 16, bufferSize: 3) == expected,
        "cut at \(cut) of \(stream.count), one byte at a time")
    }
  }

  // MARK: - Damage

  /// Damage to one frame (with a checksum, content size in its header), and libzstd's reason.
  static let damages: [(name: String, damage: @Sendable ([UInt8]) -> [UInt8], reason: String)] = [
    ("checksum byte 0", { flipping($0, at: $0.count - 4) }, "Restored data doesn't match checksum"),
    ("checksum byte 3", { flipping($0, at: $0.count - 1) }, "Restored data doesn't match checksum"),
    ("reserved header bit", { replacing($0, at: 4, with: $0[4] | 0x08) }, "Unsupported frame parameter"),
    ("trailing text", { $0 + Array("hello\n".utf8) }, "Unknown frame descriptor"),
    ("one trailing newline", { $0 + [0x0a] }, "Unknown frame descriptor"),
    ("trailing zero padding", { $0 + [UInt8](repeating: 0, count: 512) }, "Unknown frame descriptor"),
    ("half a magic, then other", { $0 + [0x28, 0xB5, 0x00, 0x00] }, "Unknown frame descriptor"),
    ("reserved block type", { _ in reservedBlockFrame }, "Data corruption detected"),
  ]

  @Test("Damage to a header, a checksum or what follows gives libzstd's reason", arguments: damages.indices)
  func damage(index: Int) throws {
    let (name, damage, reason) = Self.damages[index]
    let damaged = damage(try ZstdFrames.frame(Self.sampleBytes(count: 20_000, seed: 3)))
    let expected = Result<[UInt8], InputError>.failure(.zstdCorrupt(path: "memory", reason: reason))
    #expect(Self.decompress(damaged) == expected, "\(name)")
    #expect(Self.decompress(damaged, step: 1, inputCapacity: 16, bufferSize: 1) == expected, "\(name)")
  }

  @Test("Every byte of a multi-frame stream damaged: an error or other bytes, never a crash or a silent cut")
  func everyDamagedByte() throws {
    let (stream, content, _) = try Self.multiFrame()
    for index in stream.indices {
      for mask: UInt8 in [0xff, 0x01, 0x80] {
        switch Self.decompress(flipping(stream, at: index, mask: mask)) {
        case .success(let bytes):
          // Only the frames without a checksum, or a skippable frame's payload, can change unseen;
          // the result is never a prefix of the content (a silently shorter input).
          #expect(bytes == content || !content.starts(with: bytes) || bytes.count == content.count, "byte \(index)")
        case .failure(.zstdCorrupt(let path, _)), .failure(.zstdTruncated(let path)):
          #expect(path == "memory")
        case .failure(let error):
          Issue.record("byte \(index) ^ \(mask): \(error)")
        }
      }
    }
  }

  @Test("A failed zstd source keeps failing instead of looking finished")
  func failureIsSticky() throws {
    let source = try ZstdSource(
      wrapping: MemorySource(try ZstdFrames.frame(Self.sampleBytes(count: 100, seed: 1)) + [0]))
    #expect(throws: InputError.self) { _ = try InputTestsReader.readAll(source) }
    #expect(throws: InputError.self) { _ = try InputTestsReader.readAll(source) }
  }

  // MARK: - Hostile headers, bounded memory

  @Test(
    "A window beyond 2^27 bytes is refused before anything is allocated for it",
    arguments: [
      ("window 2^28", ZstdFrames.windowHeader(windowLog: 28)),
      ("window 2^31", ZstdFrames.windowHeader(windowLog: 31)),
      ("window 2^41, the descriptor's largest", [0x00, 0xFF]),
      // Single segment: the window is the content size, here 2^63 bytes.
      ("content size 2^63, one segment", [0xE0, 0, 0, 0, 0, 0, 0, 0, 0x80]),
      ("content size 2^28 + 1, one segment", [0xE0, 1, 0, 0, 0x10, 0, 0, 0, 0]),
    ] as [(String, [UInt8])])
  func windowTooLarge(name: String, header: [UInt8]) throws {
    #expect(ZstdSource.windowLogMax == 27)
    let frame = ZstdFrames.rawFrame(header: header, content: Array("{}\n".utf8))
    let expected = Result<[UInt8], InputError>.failure(
      .zstdCorrupt(path: "memory", reason: "Frame requires too much memory for decoding"))
    #expect(Self.decompress(frame) == expected, "\(name)")
    #expect(Self.decompress(frame, step: 1, inputCapacity: 16, bufferSize: 1) == expected, "\(name)")
  }

  @Test("A frame declaring the largest window accepted (128 MiB) reads; libzstd frames of every level too")
  func largestWindowAccepted() throws {
    let frame = ZstdFrames.rawFrame(header: ZstdFrames.windowHeader(windowLog: 27), content: Array("{}\n".utf8))
    #expect(Self.decompress(frame) == .success(Array("{}\n".utf8)))
    let content = Self.sampleBytes(count: 5_000, seed: 9)
    #expect(Self.decompress(try ZstdFrames.frame(content, windowLog: 27)) == .success(content))
  }

  @Test("A content size that disagrees with the data is corrupt, not a shorter input")
  func wrongContentSize() throws {
    // One segment, a one-byte content size of 5, then a raw block of 3 bytes.
    let frame = ZstdFrames.rawFrame(header: [0x20, 5], content: Array("{}\n".utf8))
    guard case .failure(.zstdCorrupt(let path, _)) = Self.decompress(frame) else {
      Issue.record("a frame shorter than its content size read without a corrupt error")
      return
    }
    #expect(path == "memory")
  }

  @Test("A 200 MB run of zeros streams through a 64 KiB buffer")
  func smallBomb() throws {
    let total = 200_000_000
    let compressed = try ZstdFrames.frame([UInt8](repeating: 0, count: total), level: 19)
    #expect(compressed.count < 100_000)
    let source = try InputOpener.detectCompression(MemorySource(compressed))
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
      #expect(read <= buffer.count)
      count += read
      if memcmp(zeros, base, read) != 0 { nonZeroReads += 1 }
    }
    #expect(count == total)
    #expect(nonZeroReads == 0)
  }
}

/// Reads a source to its end, 4 KiB at a time.
enum InputTestsReader {
  static func readAll(_ source: any ByteSource, bufferSize: Int = 4096) throws(InputError) -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    var result: [UInt8] = []
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { return result }
      result += buffer[0..<count]
    }
  }
}

/// A frame whose one block has the reserved block type 3.
private let reservedBlockFrame: [UInt8] = ZstdFrames.magic + [0x00, 0x00, 0x07, 0x00, 0x00]

private func flipping(_ bytes: [UInt8], at index: Int, mask: UInt8 = 0xff) -> [UInt8] {
  var copy = bytes
  copy[index] ^= mask
  return copy
}

private func replacing(_ bytes: [UInt8], at index: Int, with value: UInt8) -> [UInt8] {
  var copy = bytes
  copy[index] = value
  return copy
}
