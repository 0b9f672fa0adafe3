/// Gathers an `AsyncSequence` of single bytes (`URLSession.AsyncBytes`)
/// into chunks of up to `size` bytes, so the async entry points take it like
/// a sequence of chunks.
package struct AsyncByteBatches<Base: AsyncSequence>: AsyncSequence where Base.Element == UInt8 {
  /// Each element is one chunk of bytes.
  package typealias Element = [UInt8]

  let base: Base
  let size: Int

  /// Chunks of `base`'s bytes, `size` bytes each except the last.
  package init(_ base: Base, size: Int = 64 * 1024) {
    self.base = base
    self.size = Swift.max(1, size)
  }

  /// Reads `size` bytes of the base sequence per chunk.
  package struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let size: Int
    var ended = false

    /// The next chunk, `nil` once the base sequence ended.
    ///
    /// A cancelled task ends the chunk at once, with the bytes gathered so far (`nil` when none),
    /// and asks the base for no more: the caller looks at cancellation per chunk, and a slow
    /// stream of single bytes that does not look at it itself (a byte a millisecond) would
    /// otherwise hold a cancelled task for a whole chunk, a minute at 64 KiB.
    package mutating func next() async throws -> [UInt8]? {
      guard !ended else { return nil }
      var chunk: [UInt8] = []
      chunk.reserveCapacity(size)
      while chunk.count < size && !Task.isCancelled {
        guard let byte = try await base.next() else {
          ended = true
          break
        }
        chunk.append(byte)
      }
      return chunk.isEmpty ? nil : chunk
    }
  }

  /// Starts reading the base sequence in chunks.
  package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), size: size) }
}

extension AsyncByteBatches: Sendable where Base: Sendable {}

extension GroupPipeline {
  /// Groups a stream of single bytes (`URLSession.bytes(from:)`), gathered into
  /// chunks of 64 KiB; see `run(options:name:chunks:onRejection:)`. Cancellation
  /// is looked at before each byte, so a cancelled task asks the stream for no
  /// further byte, however slowly the bytes come.
  public static func run<Bytes: AsyncSequence>(
    options: GroupOptions, name: String = "-", bytes: Bytes,
    onRejection: (@Sendable (RecordRejection) throws -> Void)? = nil
  ) async throws -> GroupReport where Bytes.Element == UInt8 {
    try await run(options: options, name: name, chunks: AsyncByteBatches(bytes), onRejection: onRejection)
  }
}
