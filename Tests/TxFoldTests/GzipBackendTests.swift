import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// The gzip libraries side by side. Every backend this build has — zlib always, ISA-L with the
/// `ISAL` trait (`swift test --traits ISAL`) — must read the same streams to the same bytes and
/// fail on the same damage with the same error; `InputTests` runs its gzip tests through the
/// build's default backend.
@Suite struct GzipBackendTests {
  // MARK: - Fixtures

  /// JSON-lines-looking text with pseudo-random runs, so deflate makes several kinds of block.
  static func sampleBytes(count: Int, seed: UInt64) -> [UInt8] {
    CompressibleSample.bytes(count: count, state: seed | 1, noteCycle: 19)
  }

  /// `content` as one gzip member written by `GzipFileWriter` (zlib's deflate, flags 0).
  static func gzip(_ content: [UInt8], level: Int32 = 6) throws -> [UInt8] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("TxFoldGzip-\(UUID().uuidString).gz")
    defer { try? FileManager.default.removeItem(at: url) }
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    let handle = try FileHandle(forWritingTo: url)
    let writer = try GzipFileWriter(fileDescriptor: handle.fileDescriptor, name: url.path, level: level)
    try writer.write(content)
    try writer.finish()
    try handle.close()
    return try Array(Data(contentsOf: url))
  }

  /// BGZF's end-of-file marker: an empty member with an extra field (SAM/BAM specification 4.1.2).
  static let bgzfEOFBlock: [UInt8] = [
    0x1f, 0x8b, 0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x06, 0x00, 0x42, 0x43,
    0x02, 0x00, 0x1b, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  ]

  /// A member whose header carries the optional fields `flags` asks for (RFC 1952 2.3.1):
  /// `member`'s ten-byte header replaced, its deflate data and trailer kept.
  static func withHeader(
    _ member: [UInt8], extra: [UInt8]? = nil, name: String? = nil, comment: String? = nil, headerCRC: Bool = false,
    text: Bool = false
  ) -> [UInt8] {
    var flags: UInt8 = 0
    if text { flags |= 0x01 }
    if headerCRC { flags |= 0x02 }
    if extra != nil { flags |= 0x04 }
    if name != nil { flags |= 0x08 }
    if comment != nil { flags |= 0x10 }
    var header: [UInt8] = [0x1f, 0x8b, 0x08, flags, 0x5e, 0x17, 0x3a, 0x65, 0x00, 0x03]
    if let extra {
      header += [UInt8(extra.count & 0xff), UInt8(extra.count >> 8)] + extra
    }
    if let name { header += Array(name.utf8) + [0] }
    if let comment { header += Array(comment.utf8) + [0] }
    if headerCRC {
      let crc = crc32(header)
      header += [UInt8(crc & 0xff), UInt8((crc >> 8) & 0xff)]
    }
    return header + member.dropFirst(10)
  }

  /// CRC-32 (the gzip polynomial), bit by bit: only for building fixtures.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// Reads `compressed` whole through `backend`, `step` bytes per read from the source and
  /// `bufferSize` bytes per read from the gzip source.
  static func inflate(
    _ compressed: [UInt8], backend: GzipSource.Backend, step: Int = .max,
    inputCapacity: Int = GzipSource.defaultInputCapacity, bufferSize: Int = 4096
  ) -> Result<[UInt8], InputError> {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    do throws(InputError) {
      let source = try GzipSource(
        wrapping: MemorySource(compressed, step: step), inputCapacity: inputCapacity, backend: backend)
      #expect(source.backend == backend)
      var result: [UInt8] = []
      while true {
        let count = try source.read(into: buffer)
        if count == 0 { return .success(result) }
        result += buffer[0..<count]
      }
    } catch {
      return .failure(error)
    }
  }

  // MARK: - The build

  @Test("The default backend is the one the build's trait asks for, and the opener uses it")
  func defaultBackend() throws {
    #if ISAL
      #expect(GzipSource.Backend.allCases == [.zlib, .isal])
      #expect(GzipSource.Backend.default == .isal)
      #expect(GzipSource.inflateLibrary == "ISA-L")
    #else
      #expect(GzipSource.Backend.allCases == [.zlib])
      #expect(GzipSource.Backend.default == .zlib)
      #expect(GzipSource.inflateLibrary == "zlib")
    #endif
    let content = Self.sampleBytes(count: 5_000, seed: 1)
    let opened = try InputOpener.detectCompression(MemorySource(Self.gzip(content)))
    let source = try #require(opened as? GzipSource)
    #expect(source.backend == .default)
  }

  // MARK: - Every backend

  @Test("Every level, size and buffer size reads back", arguments: GzipSource.Backend.allCases)
  func roundTrip(backend: GzipSource.Backend) throws {
    for size in [0, 1, 1_000, 300_000] {
      let content = Self.sampleBytes(count: size, seed: UInt64(size))
      for level: Int32 in [0, 1, 6, 9] {
        let compressed = try Self.gzip(content, level: level)
        // One-byte reads of the largest content would only make the test slow.
        for bufferSize in size > 1_000 ? [65_536, 1 << 20] : [1, 7, 65_536, 1 << 20] {
          let result = Self.inflate(compressed, backend: backend, bufferSize: bufferSize)
          #expect(result == .success(content), "size \(size), level \(level), buffer \(bufferSize)")
        }
      }
    }
  }

  @Test("A window's worth of history crosses every read, however small", arguments: GzipSource.Backend.allCases)
  func longDistancesAcrossReads(backend: GzipSource.Backend) throws {
    // Repeats 20 KiB apart: matches reach back across many small output buffers.
    let unit = Self.sampleBytes(count: 20_000, seed: 5)
    let content = Array((0..<12).map { index in unit.map { $0 ^ UInt8(index & 1) } }.joined())
    let compressed = try Self.gzip(content, level: 9)
    #expect(compressed.count < content.count / 2)
    for bufferSize in [3, 1000, 32_768, 32_769, 100_000] {
      #expect(Self.inflate(compressed, backend: backend, bufferSize: bufferSize) == .success(content))
    }
  }

  @Test(
    "Header fields (extra, name, comment, header CRC) are skipped, split anywhere",
    arguments: GzipSource.Backend.allCases)
  func headerFields(backend: GzipSource.Backend) throws {
    let content = Self.sampleBytes(count: 3_000, seed: 7)
    let member = try Self.gzip(content)
    let variants: [[UInt8]] = [
      Self.withHeader(member, name: "dump.jsonl"),
      Self.withHeader(member, comment: "exported by a bank"),
      Self.withHeader(member, extra: [0x42, 0x43, 0x02, 0x00, 0x10, 0x00]),
      Self.withHeader(member, extra: []),
      Self.withHeader(member, extra: [UInt8](repeating: 0x41, count: 5_000)),
      Self.withHeader(member, headerCRC: true),
      Self.withHeader(member, extra: [1, 2, 3], name: "", comment: "c", headerCRC: true, text: true),
      Self.withHeader(member, name: String(repeating: "n", count: 600), headerCRC: true),
    ]
    for (index, variant) in variants.enumerated() {
      let twice = variant + variant
      #expect(Self.inflate(twice, backend: backend) == .success(content + content), "variant \(index)")
      for step in [1, 3] {
        let result = Self.inflate(twice, backend: backend, step: step, inputCapacity: 16, bufferSize: 5)
        #expect(result == .success(content + content), "variant \(index), step \(step)")
      }
    }
  }

  /// Members of known sizes, so that every cut point is known to be a boundary or not.
  static func multiMember() throws -> (stream: [UInt8], boundaries: [Int: [UInt8]]) {
    let first = sampleBytes(count: 700, seed: 11)
    let second = sampleBytes(count: 500, seed: 12)
    var stream: [UInt8] = []
    var content: [UInt8] = []
    var boundaries: [Int: [UInt8]] = [:]
    for (member, plain) in [
      (try gzip(first), first), (try gzip([]), []), (try gzip(second, level: 1), second),
      (withHeader(try gzip(first, level: 0), name: "x", headerCRC: true), first), (bgzfEOFBlock, []),
    ] {
      stream += member
      content += plain
      boundaries[stream.count] = content
    }
    return (stream, boundaries)
  }

  @Test(
    "Cut at every byte: a member boundary reads the members before it, anything else is truncated",
    arguments: GzipSource.Backend.allCases)
  func everyCut(backend: GzipSource.Backend) throws {
    let (stream, boundaries) = try Self.multiMember()
    #expect(boundaries.count == 5)
    for cut in 0...stream.count {
      let prefix = Array(stream.prefix(cut))
      let expected: Result<[UInt8], InputError> =
        boundaries[cut].map { .success($0) } ?? .failure(.gzipTruncated(path: "memory"))
      #expect(Self.inflate(prefix, backend: backend) == expected, "cut at \(cut) of \(stream.count)")
      #expect(
        Self.inflate(prefix, backend: backend, step: 1, inputCapacity: 16, bufferSize: 3) == expected,
        "cut at \(cut) of \(stream.count), one byte at a time")
    }
  }

  /// Damage to one member, and zlib's reason for it, which every backend must give.
  static let damages: [(name: String, damage: @Sendable ([UInt8]) -> [UInt8], reason: String)] = [
    ("CRC byte 0", { flipping($0, at: $0.count - 8) }, "incorrect data check"),
    ("CRC byte 3", { flipping($0, at: $0.count - 5) }, "incorrect data check"),
    ("length byte 0", { flipping($0, at: $0.count - 4) }, "incorrect length check"),
    ("length byte 3", { flipping($0, at: $0.count - 1) }, "incorrect length check"),
    ("CRC and length", { flipping(flipping($0, at: $0.count - 6), at: $0.count - 2) }, "incorrect data check"),
    ("second magic byte", { replacing($0, at: 1, with: 0x8c) }, "incorrect header check"),
    ("unknown method", { replacing($0, at: 2, with: 0x07) }, "unknown compression method"),
    ("reserved flag 0x20", { replacing($0, at: 3, with: 0x20) }, "unknown header flags set"),
    ("reserved flag 0x80", { replacing($0, at: 3, with: 0x88) }, "unknown header flags set"),
    ("header CRC", { flipping(withHeader($0, name: "a", headerCRC: true), at: 13) }, "header crc mismatch"),
    ("CRC bad, length cut off", { Array(flipping($0, at: $0.count - 7).dropLast(4)) }, "incorrect data check"),
    ("CRC bad, length cut short", { Array(flipping($0, at: $0.count - 7).dropLast(1)) }, "incorrect data check"),
    ("trailing text", { $0 + Array("hello\n".utf8) }, "trailing data after gzip member"),
    ("trailing zero padding", { $0 + [UInt8](repeating: 0, count: 512) }, "trailing data after gzip member"),
    ("half a magic, then other", { $0 + [0x1f, 0x00, 0x00] }, "trailing data after gzip member"),
  ]

  @Test(
    "Damage to the header, trailer or what follows gives zlib's error on every backend",
    arguments: GzipSource.Backend.allCases, damages.indices)
  func damage(backend: GzipSource.Backend, index: Int) throws {
    let (name, damage, reason) = Self.damages[index]
    let damaged = damage(try Self.gzip(Self.sampleBytes(count: 20_000, seed: 3)))
    let expected = Result<[UInt8], InputError>.failure(.gzipCorrupt(path: "memory", reason: reason))
    #expect(Self.inflate(damaged, backend: backend) == expected, "\(name)")
    #expect(Self.inflate(damaged, backend: backend, step: 1, inputCapacity: 16, bufferSize: 1) == expected, "\(name)")
  }

  @Test("A cut in the length after a good CRC is truncated, not corrupt", arguments: GzipSource.Backend.allCases)
  func goodCRCThenCut(backend: GzipSource.Backend) throws {
    let member = try Self.gzip(Self.sampleBytes(count: 20_000, seed: 3))
    for cut in 1...4 {
      #expect(Self.inflate(Array(member.dropLast(cut)), backend: backend) == .failure(.gzipTruncated(path: "memory")))
    }
  }

  @Test("Damaged deflate data is corrupt on every backend", arguments: GzipSource.Backend.allCases)
  func damagedDeflateData(backend: GzipSource.Backend) throws {
    let member = try Self.gzip(Self.sampleBytes(count: 20_000, seed: 3))
    // Block type 3 is reserved: the first block header says so.
    let badBlockType = replacing(member, at: 10, with: member[10] | 0x06)
    for damaged in [badBlockType, flipping(member, at: member.count / 2)] {
      guard case .failure(.gzipCorrupt(let path, _)) = Self.inflate(damaged, backend: backend) else {
        Issue.record("damaged deflate data read without a corrupt error")
        continue
      }
      #expect(path == "memory")
    }
  }

  // MARK: - Backends against each other

  /// Outcomes compared across backends: the same bytes, or the same error — except that where
  /// either library finds the deflate data itself damaged, both must call the stream corrupt
  /// but may say why in their own words. (zlib refuses incomplete Huffman code sets that ISA-L
  /// decodes, into bytes whose CRC then does not match: "invalid literal/lengths set" from
  /// zlib is "incorrect data check" from ISA-L.)
  static func agree(_ lhs: Result<[UInt8], InputError>, _ rhs: Result<[UInt8], InputError>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let a), .success(let b)): return a == b
    case (.failure(.gzipCorrupt(let p, let a)), .failure(.gzipCorrupt(let q, let b))):
      return p == q && (a == b || !zlibWrapperReasons.contains(a) || !zlibWrapperReasons.contains(b))
    case (.failure(let a), .failure(let b)): return a == b
    default: return false
    }
  }

  /// The reasons that come from the gzip wrapper rather than the deflate data.
  static let zlibWrapperReasons: Set<String> = [
    "incorrect header check", "unknown compression method", "unknown header flags set", "header crc mismatch",
    "incorrect data check", "incorrect length check", "trailing data after gzip member",
  ]

  @Test(
    "Every byte of a multi-member stream damaged: each backend gives zlib's outcome",
    .enabled(if: GzipSource.Backend.allCases.count > 1, "only zlib in this build; run with --traits ISAL"))
  func everyDamagedByteAgainstZlib() throws {
    let (stream, _) = try Self.multiMember()
    for backend in GzipSource.Backend.allCases where backend != .zlib {
      for index in stream.indices {
        for mask: UInt8 in [0xff, 0x01, 0x80] {
          let damaged = flipping(stream, at: index, mask: mask)
          let zlib = Self.inflate(damaged, backend: .zlib)
          let other = Self.inflate(damaged, backend: backend)
          #expect(Self.agree(zlib, other), "byte \(index) ^ \(mask): zlib \(zlib), \(backend) \(other)")
        }
      }
    }
  }
}

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
