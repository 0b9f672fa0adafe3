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
  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count <= room, "a write past the scratch memory")
    guard let target = memory.baseAddress, let source = bytes.baseAddress, !bytes.isEmpty else { return }
    UnsafeMutableRawPointer(target + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(bytes)) }

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
