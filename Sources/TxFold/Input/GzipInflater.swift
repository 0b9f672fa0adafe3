/// The part of reading gzip that depends on the library doing the inflating: one member at a
/// time, from a slice of compressed bytes into a slice of the caller's buffer.
///
/// `GzipSource` owns everything else and so keeps it identical whichever library inflates: the
/// compressed-input buffer, where members start (the magic) and what may follow them, when the
/// input counts as truncated, and the paths in the errors. An inflater decodes one member's
/// header, deflate data and trailer (CRC-32 and length checked) and says when it has ended.
///
/// Two conform: `ZlibInflater` (always built) and `IsalInflater` (with the `ISAL` trait).
protocol GzipInflater: AnyObject {
  /// Inflates from `input` into `output`, never writing past `output.count` bytes.
  ///
  /// A step that consumes nothing, produces nothing and does not end the member needs more
  /// input; with input left that is a stuck decompressor. Consumed bytes are gone: the next
  /// call starts after them.
  ///
  /// - Throws: `GzipInflateError.corrupt` for damaged data, with a reason in zlib's words where
  ///   the damage is in the header or the trailer.
  func inflate(from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(GzipInflateError)
    -> GzipInflateStep

  /// Forgets the member that has ended and expects the next one's header.
  func reset() throws(GzipInflateError)

  /// Called when the input has ended inside a member: a reason to call the stream corrupt
  /// rather than truncated when the bytes read so far already prove damage (a CRC that does
  /// not match, whose length field was cut off), as zlib reports it; nil otherwise.
  func damageAtEndOfInput() -> GzipInflateError?
}

/// What one `GzipInflater.inflate` call did.
struct GzipInflateStep {
  /// Compressed bytes used from the front of the input.
  var consumed: Int
  /// Bytes written at the front of the output.
  var produced: Int
  /// Whether the member's trailer has been read and checked.
  var memberEnded: Bool
}

/// Why an inflater stopped; `GzipSource` adds the input's path.
enum GzipInflateError: Error {
  /// The data is damaged: becomes `InputError.gzipCorrupt`.
  case corrupt(reason: String)
  /// The library failed for another reason (out of memory): becomes `InputError.readFailed`.
  case failed(reason: String)
}
