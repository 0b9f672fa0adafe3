#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// `memchr(3)`: the first `byte` in the `count` bytes at `start`, or `nil`. The framers and the
  /// partial reader find line ends with it (per chunk and per line: inlined).
  @inlinable @inline(__always)
  package static func findByte(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
    UnsafeRawPointer(memchr(start, Int32(byte), count))
  }

  /// `memcmp(3)`: negative, zero or positive as the `count` bytes at `lhs` come before, equal or
  /// come after those at `rhs`. The scanner matches literals and the per-account end orders ids
  /// with it (inlined).
  @inlinable @inline(__always)
  package static func compareBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Int32 {
    memcmp(lhs, rhs, count)
  }

  /// `memmove(3)`: copies `count` bytes from `source` to `destination`; the ranges may overlap.
  @inlinable @inline(__always)
  package static func moveBytes(to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
    memmove(destination, source, count)
  }
}
