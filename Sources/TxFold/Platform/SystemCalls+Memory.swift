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

extension SystemCalls {
  /// `mmap(2)` of `count` bytes of private anonymous memory, read and write, or `nil` with
  /// `errno` set. The kernel gives each page zeroed on its first touch.
  package static func mapMemory(count: Int) -> UnsafeMutableRawPointer? {
    let address = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let address, address != MAP_FAILED else { return nil }
    return address
  }

  /// `munmap(2)` of memory `mapMemory(count:)` gave: 0, or -1 with `errno` set.
  @discardableResult
  package static func unmapMemory(_ address: UnsafeMutableRawPointer, count: Int) -> Int32 {
    munmap(address, count)
  }

  /// `madvise(MADV_HUGEPAGE)`: asks Linux to back the range with transparent huge pages where the
  /// system lets a program ask (`transparent_hugepage` set to `madvise` or `always`); advice only,
  /// so nothing is reported. Elsewhere it does nothing.
  package static func adviseHugePages(_ address: UnsafeMutableRawPointer, count: Int) {
    #if os(Linux)
      _ = madvise(address, count, Int32(MADV_HUGEPAGE))
    #endif
  }
}
