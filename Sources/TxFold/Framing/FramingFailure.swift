/// The error type of a framer's consumer, which must also be able to carry
/// the input's own read failure.
///
/// Every framer (`InputFramer`, `LineFramer`, `DocumentFramer`) is generic
/// over its consumer's error: the closures it calls — `nextChunk` for an
/// empty chunk to fill, `emit` with each filled one — throw `Failure`, and so
/// does the framer. That is the consumer's whole contract, stop semantics
/// included:
///
/// - **Stopping.** A consumer stops the read by throwing from `nextChunk` or
///   `emit`. The framer returns at once: it reads nothing more, emits nothing
///   more, and rethrows the error unchanged, so the caller sees its own error
///   (no sentinel to translate back).
/// - **Ownership.** A chunk handed to `emit` belongs to the consumer. A chunk
///   taken from `nextChunk` and never emitted (the input ended, or the read
///   stopped) stays the consumer's too; the framer never keeps one across calls.
/// - **Read failures.** A failing `ByteSource.read` ends the framer with
///   `Failure.reading(error)`.
protocol FramingFailure: Error {
  /// The consumer's error for the input failing to read.
  static func reading(_ error: InputError) -> Self
}

extension FramingFailure {
  /// What `read` returns, its input error turned into `reading(_:)`: how a
  /// framer calls its source.
  @inline(__always)
  static func catchingRead<Read>(_ read: @autoclosure () throws(InputError) -> Read) throws(Self) -> Read {
    do {
      return try read()
    } catch {
      throw .reading(error)
    }
  }
}
