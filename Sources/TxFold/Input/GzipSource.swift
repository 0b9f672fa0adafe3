import CZlib

/// A byte source that inflates a gzip stream read from another source.
///
/// Every gzip member is read to the very end: concatenated `.gz` files,
/// `pigz` output and BGZF (whose last member is an empty EOF block) all give
/// the concatenation of their members' contents. Damage is never a shorter
/// input: a stream that ends before a member's trailer is `gzipTruncated`, and
/// bad data, a bad CRC or length, or bytes after a member that do not start
/// another member are `gzipCorrupt`.
///
/// Trailing bytes decision: after a member the only thing accepted is another
/// member (starting with the magic `1f 8b`) or the end of the input. Zero
/// padding (as left by some tape and block-device tools) is rejected like any
/// other trailing data, because it is not a gzip member and accepting it would
/// also hide a file whose tail was overwritten. `gzip -d` only warns about it;
/// we prefer a loud error to a report built on an input we could not check.
///
/// Memory is bounded whatever the compression ratio: compressed bytes go
/// through one fixed input buffer, and inflated bytes go straight into the
/// caller's buffer, so a "gzip bomb" streams like any other input.
public final class GzipSource: ByteSource {
  /// The default size of the compressed-input buffer: large enough that
  /// reading from the underlying source costs little per byte.
  public static let defaultInputCapacity = 256 * 1024

  /// The first two bytes of every gzip member.
  private static let magic: (UInt8, UInt8) = (0x1f, 0x8b)

  private enum Phase {
    /// Inside a member, before its end marker and trailer.
    case inMember
    /// A member has ended; the next bytes must be another member or nothing.
    case betweenMembers
    /// The input has ended after a complete member.
    case finished
  }

  private let source: any ByteSource
  // zlib keeps a pointer back to its z_stream and checks it on every call, so
  // the stream lives at a fixed address of our own rather than in a Swift
  // stored property, whose address is not guaranteed to stay the same.
  private let stream: UnsafeMutablePointer<z_stream>
  private let input: UnsafeMutableRawPointer
  private let inputCapacity: Int
  private var phase = Phase.inMember
  private var sourceEnded = false
  private var failure: InputError?

  /// The input's name for messages: the underlying source's.
  public var name: String { source.name }
  /// Compressed bytes read from the underlying source so far.
  public var storedBytesRead: Int64 { source.storedBytesRead }
  /// The underlying source's size (the compressed size) when known.
  public var storedSize: Int64? { source.storedSize }

  /// Starts inflating `source`, which must begin with a gzip member.
  ///
  /// An empty `source` reads as truncated (it lacks even a header); callers
  /// that want an empty input to be valid detect gzip first, as `InputOpener` does.
  ///
  /// - Parameters:
  ///   - source: The compressed bytes.
  ///   - inputCapacity: The size of the fixed compressed-input buffer.
  /// - Throws: `InputError.readFailed` when zlib cannot be set up (out of memory).
  public init(wrapping source: any ByteSource, inputCapacity: Int = GzipSource.defaultInputCapacity) throws(InputError)
  {
    self.source = source
    // At least two bytes so the magic of a following member can always be
    // held whole; at most what zlib's 32-bit counters can describe.
    let inputCapacity = min(max(inputCapacity, 16), Int(UInt32.max))
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // windowBits 15 + 16: a 32 KiB window and the gzip wrapper (not zlib's).
    let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      // Thrown before every stored property is set, so deinit does not run
      // and the cleanup is ours.
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw .readFailed(path: source.name, reason: "cannot start gzip decompression (zlib status \(status))")
    }
    self.stream = stream
    self.inputCapacity = inputCapacity
    self.input = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 1)
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    input.deallocate()
  }

  /// Inflates up to `buffer.count` bytes into `buffer`; returns 0 only after the
  /// last member has ended and the underlying source is at its end (or when
  /// `buffer` is empty).
  ///
  /// - Throws: `InputError.gzipTruncated` when the input ends inside a member;
  ///   `InputError.gzipCorrupt` for damaged data or trailing bytes; the
  ///   underlying source's errors. Once a read has failed, every later read
  ///   throws the same error.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    if let failure { throw failure }
    do {
      return try inflateInto(buffer)
    } catch {
      failure = error
      throw error
    }
  }

  private func inflateInto(_ buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard phase != .finished, let output = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let capacity = min(buffer.count, Int(UInt32.max))
    stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = UInt32(capacity)
    // Loop until some output exists: inflate can consume a whole input
    // buffer of header bytes or an empty member and produce nothing, and
    // returning 0 then would end the input early.
    while true {
      if phase == .betweenMembers {
        guard try startNextMember() else {
          phase = .finished
          return 0
        }
      }
      if stream.pointee.avail_in == 0 {
        guard try refill() > 0 else { throw .gzipTruncated(path: name) }
      }
      let status = inflate(stream, Z_NO_FLUSH)
      let produced = capacity - Int(stream.pointee.avail_out)
      switch status {
      case Z_OK:
        if produced > 0 { return produced }
      case Z_STREAM_END:
        phase = .betweenMembers
        if produced > 0 { return produced }
      case Z_BUF_ERROR:
        // No progress was possible. With input and output space both present
        // that would be a zlib bug; stop rather than spin.
        if stream.pointee.avail_in > 0 {
          throw .gzipCorrupt(path: name, reason: "decompressor made no progress")
        }
      case Z_DATA_ERROR:
        throw .gzipCorrupt(path: name, reason: zlibMessage() ?? "invalid compressed data")
      case Z_NEED_DICT:
        throw .gzipCorrupt(path: name, reason: "stream needs a preset dictionary")
      case Z_MEM_ERROR:
        throw .readFailed(path: name, reason: "out of memory while decompressing")
      default:
        throw .readFailed(path: name, reason: "gzip decompression failed (zlib status \(status))")
      }
    }
  }

  /// After a member has ended: returns false at the end of the input, true
  /// after resetting zlib for the next member, and throws when the following
  /// bytes are not a gzip member.
  private func startNextMember() throws(InputError) -> Bool {
    // The magic may straddle two reads from the source; gather both bytes.
    while stream.pointee.avail_in < 2 && !sourceEnded {
      _ = try refill()
    }
    let available = Int(stream.pointee.avail_in)
    guard available > 0, let next = stream.pointee.next_in else { return false }
    // Safe because `available` >= 1 bytes start at next_in (zlib's own count).
    if next[0] != Self.magic.0 {
      throw .gzipCorrupt(path: name, reason: "trailing data after gzip member")
    }
    guard available >= 2 else {
      // The source ended one byte into what looks like another member.
      throw .gzipTruncated(path: name)
    }
    // Safe because `available` >= 2.
    if next[1] != Self.magic.1 {
      throw .gzipCorrupt(path: name, reason: "trailing data after gzip member")
    }
    // inflateReset keeps the window allocation and the gzip mode of inflateInit2.
    let status = inflateReset(stream)
    guard status == Z_OK else {
      throw .readFailed(path: name, reason: "cannot restart gzip decompression (zlib status \(status))")
    }
    phase = .inMember
    return true
  }

  /// Moves the unconsumed input to the front of the buffer and reads more
  /// after it; returns how many bytes were read (0 at the source's end).
  private func refill() throws(InputError) -> Int {
    guard !sourceEnded else { return 0 }
    let leftover = Int(stream.pointee.avail_in)
    if leftover > 0, let next = stream.pointee.next_in {
      // Safe because next_in points into `input` with `leftover` valid bytes;
      // copyMemory is a memmove, so the overlap is fine.
      input.copyMemory(from: next, byteCount: leftover)
    }
    // Safe because leftover < 2 <= inputCapacity whenever refill is called
    // (an empty buffer, or one byte of a following member's magic).
    let space = UnsafeMutableRawBufferPointer(start: input + leftover, count: inputCapacity - leftover)
    let count = try source.read(into: space)
    if count == 0 { sourceEnded = true }
    stream.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_in = UInt32(leftover + count)
    return count
  }

  /// zlib's text for the last error, e.g. "incorrect data check" for a bad CRC.
  private func zlibMessage() -> String? {
    stream.pointee.msg.map { String(cString: $0) }
  }
}
