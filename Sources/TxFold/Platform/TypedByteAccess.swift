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

extension UnsafeMutableRawBufferPointer {
  /// Grows memory this code owns to at least `size` bytes (and at least twice
  /// what it was, so appending stays linear): `kept` of the old bytes move to
  /// the front of the new memory, and the old memory is freed.
  mutating func grow(toAtLeast size: Int, keeping kept: Range<Int>, alignment: Int) {
    let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(size, 2 * count), alignment: alignment)
    if !kept.isEmpty { larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: self[kept])) }
    deallocate()
    self = larger
  }
}

extension Array {
  /// The elements where they lie, past the call: for reading while the
  /// caller guarantees that nothing changes or frees the array (a fold's
  /// table while it is rendered). Read through a pointer to the memory that
  /// holds the array (`pointer.pointee.values`), a call such as
  /// `withUnsafeBufferPointer` whose closure runs the caller's own closure
  /// makes the compiler copy the array first — a retain and a release —
  /// since it cannot tell that the caller's closure leaves that memory
  /// alone; taking the elements here ends the access before any such closure runs.
  @inline(__always)
  var elementsInPlace: UnsafeBufferPointer<Element> { withUnsafeBufferPointer { $0 } }
}
