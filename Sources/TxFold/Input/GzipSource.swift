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
///
/// Inflating is zlib's by default, or Intel ISA-L's in a build with the `ISAL`
/// trait (`swift build --traits ISAL`, needs libisal-dev): about 2.5 times as
/// fast. Everything above is this class's, not the library's, so it holds for
/// both, and so do the errors and their reasons (see `IsalInflater` for the one
/// difference: the wording for damaged deflate data).
package final class GzipSource: ByteSource {
  /// The default size of the compressed-input buffer: large enough that
  /// reading from the underlying source costs little per byte.
  package static let defaultInputCapacity = 256 * 1024

  /// The library this build inflates gzip with: `"zlib"`, or `"ISA-L"` when
  /// built with the `ISAL` trait.
  package static var inflateLibrary: String { Backend.default.libraryName }

  /// The libraries that can inflate in this build: zlib always, ISA-L with the
  /// `ISAL` trait. Tests run every one of them.
  enum Backend: CaseIterable, Sendable {
    case zlib
    #if ISAL
      case isal
    #endif

    /// The one `GzipSource` uses unless told otherwise: the fastest there is.
    static var `default`: Backend {
      #if ISAL
        return .isal
      #else
        return .zlib
      #endif
    }

    var libraryName: String {
      switch self {
      case .zlib: return "zlib"
      #if ISAL
        case .isal: return "ISA-L"
      #endif
      }
    }
  }

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

  private let inflater: any GzipInflater
  /// The library inflating this source.
  let backend: Backend
  /// Compressed bytes read and not yet inflated.
  private let input: CompressedInput
  private var phase = Phase.inMember
  private var failure = StickyFailure()

  /// The input's name for messages: the underlying source's.
  package var name: String { input.source.name }
  /// Compressed bytes read from the underlying source so far.
  package var storedBytesRead: Int64 { input.source.storedBytesRead }
  /// The underlying source's size (the compressed size) when known.
  package var storedSize: Int64? { input.source.storedSize }

  /// Starts inflating `source`, which must begin with a gzip member.
  ///
  /// An empty `source` reads as truncated (it lacks even a header); callers
  /// that want an empty input to be valid detect gzip first, as `InputOpener` does.
  ///
  /// - Parameters:
  ///   - source: The compressed bytes.
  ///   - inputCapacity: The size of the fixed compressed-input buffer.
  /// - Throws: `InputError.readFailed` when the decompressor cannot be set up (out of memory).
  package convenience init(
    wrapping source: any ByteSource, inputCapacity: Int = GzipSource.defaultInputCapacity
  ) throws(InputError) {
    try self.init(wrapping: source, inputCapacity: inputCapacity, backend: .default)
  }

  /// Starts inflating `source` with a given library; see the public initializer.
  init(wrapping source: any ByteSource, inputCapacity: Int, backend: Backend) throws(InputError) {
    self.backend = backend
    do {
      switch backend {
      case .zlib: inflater = try ZlibInflater()
      #if ISAL
        case .isal: inflater = IsalInflater()
      #endif
      }
    } catch {
      throw Self.inputError(error, path: source.name)
    }
    // At least two bytes so the magic of a following member can always be
    // held whole; at most what the libraries' 32-bit counters can describe.
    input = CompressedInput(source, capacity: min(max(inputCapacity, 16), Int(UInt32.max)))
  }

  /// Inflates up to `buffer.count` bytes into `buffer`; returns 0 only after the
  /// last member has ended and the underlying source is at its end (or when
  /// `buffer` is empty).
  ///
  /// - Throws: `InputError.gzipTruncated` when the input ends inside a member;
  ///   `InputError.gzipCorrupt` for damaged data or trailing bytes; the
  ///   underlying source's errors. Once a read has failed, every later read
  ///   throws the same error.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    try failure.read { () throws(InputError) in try inflateInto(buffer) }
  }

  private func inflateInto(_ buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard phase != .finished, buffer.count > 0 else { return 0 }
    // Loop until some output exists: an inflater can consume a whole input
    // buffer of header bytes or an empty member and produce nothing, and
    // returning 0 then would end the input early.
    while true {
      if phase == .betweenMembers {
        guard try startNextMember() else {
          phase = .finished
          return 0
        }
      }
      if input.unread.isEmpty { try input.refill() }
      let step: GzipInflateStep
      do {
        step = try inflater.inflate(from: input.unread, into: buffer)
      } catch {
        throw Self.inputError(error, path: name)
      }
      input.consume(step.consumed)
      if step.memberEnded { phase = .betweenMembers }
      if step.produced > 0 { return step.produced }
      if step.memberEnded || step.consumed > 0 { continue }
      // No progress. With input left (and output space) that would be a bug
      // in the library; stop rather than spin.
      if !input.unread.isEmpty {
        throw .gzipCorrupt(path: name, reason: "decompressor made no progress")
      }
      // The inflater has used every byte the source had, inside a member.
      if input.sourceEnded {
        if let damage = inflater.damageAtEndOfInput() { throw Self.inputError(damage, path: name) }
        throw .gzipTruncated(path: name)
      }
    }
  }

  /// After a member has ended: returns false at the end of the input, true
  /// after resetting the inflater for the next member, and throws when the
  /// following bytes are not a gzip member.
  private func startNextMember() throws(InputError) -> Bool {
    // The magic may straddle two reads from the source; gather both bytes.
    while input.unread.count < 2 && !input.sourceEnded {
      try input.refill()
    }
    let available = input.unread
    guard available.count > 0 else { return false }
    if available[0] != Self.magic.0 {
      throw .gzipCorrupt(path: name, reason: "trailing data after gzip member")
    }
    guard available.count >= 2 else {
      // The source ended one byte into what looks like another member.
      throw .gzipTruncated(path: name)
    }
    if available[1] != Self.magic.1 {
      throw .gzipCorrupt(path: name, reason: "trailing data after gzip member")
    }
    do {
      try inflater.reset()
    } catch {
      throw Self.inputError(error, path: name)
    }
    phase = .inMember
    return true
  }

  /// An inflater's error with this input's path.
  private static func inputError(_ error: GzipInflateError, path: String) -> InputError {
    switch error {
    case .corrupt(let reason): return .gzipCorrupt(path: path, reason: reason)
    case .failed(let reason): return .readFailed(path: path, reason: reason)
    }
  }
}
