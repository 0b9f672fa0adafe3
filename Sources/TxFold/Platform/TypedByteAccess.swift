/// `Array.withUnsafeBytes` rethrows an untyped error; this carries a typed one
/// out of the closure, so writers can keep `throws(OutputError)`.
@inlinable
func withUnsafeBytes<E: Error>(
  of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> Void
) throws(E) {
  var failure: E?
  bytes.withUnsafeBytes { raw in
    do throws(E) {
      try body(raw)
    } catch {
      failure = error
    }
  }
  if let failure { throw failure }
}
