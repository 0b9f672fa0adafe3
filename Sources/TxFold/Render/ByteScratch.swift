/// A small run of raw memory that a writer fills with plain copies and
/// appends to its buffer in one go: appending to an array costs a
/// uniqueness and capacity check and a call per piece, which was most of
/// writing a kept member (a dozen pieces each).
///
/// The memory is the caller's (`withUnsafeTemporaryAllocation`, on its own
/// thread's stack). Every `write` must fit: the caller checks `room` first.
struct ByteScratch {
  private let memory: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
    self.memory = memory
  }

  /// Bytes that can still be written.
  var room: Int { memory.count - count }

  /// Copies `bytes`; they must fit in `room`.
  ///
  /// Always inlined: most writes are a literal key or separator, whose
  /// length is then known where it is written, so the copy becomes a few
  /// stores instead of a call here and one to `memcpy` (six per member).
  @inline(__always)
  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count <= room, "a write past the scratch memory")
    guard let target = memory.baseAddress, let source = bytes.baseAddress, !bytes.isEmpty else { return }
    UnsafeMutableRawPointer(target + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(bytes)) }

  @inline(__always)
  mutating func write(_ literal: StaticString) {
    write(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  mutating func write(_ byte: UInt8) {
    precondition(room >= 1, "a write past the scratch memory")
    memory[count] = byte
    count += 1
  }

  /// Appends what was written to `out` and starts again.
  mutating func move(to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(rebasing: memory[0..<count]))
    count = 0
  }
}

extension ByteScratch {
  /// The room `write(_:)` of a day or a timestamp, and `writeDecimal(_:)`, may
  /// take at most (`Timestamp.textLimit`, the largest of their limits).
  static let fieldRoom = Timestamp.textLimit

  /// Makes sure `count` bytes fit, appending what was written to `out` first
  /// when they do not.
  mutating func makeRoom(_ count: Int, flushingTo out: inout [UInt8]) {
    if count > room { move(to: &out) }
  }

  /// Copies `bytes`, through `out` when they do not fit: the few strings of
  /// unbounded length (a state or currency as the input wrote it).
  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, flushingTo out: inout [UInt8]) {
    makeRoom(bytes.count, flushingTo: &out)
    if bytes.count > room {
      out.append(contentsOf: bytes)
    } else {
      write(bytes)
    }
  }

  /// Lets `body` write at most `limit` bytes at the end (`limit` within
  /// `room`); `body` returns how many it wrote.
  private mutating func writeInPlace(limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    precondition(limit <= room, "a write past the scratch memory")
    guard let base = memory.baseAddress else { return }
    let written = body(base + count)
    precondition(written <= limit, "a write past its limit")
    count += written
  }

  /// Writes `value` in decimal digits, as `[UInt8].appendDecimal` does (at most 20 bytes).
  mutating func writeDecimal(_ value: Int) {
    writeInPlace(limit: DecimalDigits.signedLimit) { DecimalDigits.write(signed: value, to: $0) }
  }

  /// Writes `YYYY-MM-DD`, as `CalendarDay.appendText` does (`fieldRoom` must fit).
  mutating func write(_ day: CalendarDay) {
    writeInPlace(limit: CalendarDay.textLimit) { day.writeText(to: $0) }
  }

  /// Writes the timestamp exactly as written, as `Timestamp.appendText` does
  /// (`fieldRoom` must fit).
  mutating func write(_ timestamp: Timestamp) {
    writeInPlace(limit: Timestamp.textLimit) { timestamp.writeText(to: $0) }
  }

  /// Writes the amount's canonical machine text, the bytes
  /// `ExactDecimal.appendText(to:)` appends; through `out` for the rare
  /// amount past a word (its text may be longer than `fieldRoom`).
  mutating func write(_ amount: ExactDecimal, flushingTo out: inout [UInt8]) {
    makeRoom(ExactDecimal.canonicalTextLimit, flushingTo: &out)
    let written: Void? = amount.withCanonicalText { write($0) }
    if written == nil {
      var text: [UInt8] = []
      amount.appendText(to: &text)
      text.withUnsafeBufferPointer { write($0, flushingTo: &out) }
    }
  }
}
