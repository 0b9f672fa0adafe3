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

extension SystemCalls {
  /// `madvise(MADV_DONTNEED)` on the whole pages within `count` bytes at `address` (a range of
  /// memory `mapMemory(count:)` gave): their memory goes back to the system now, and a page reads
  /// zeroed when next touched. Pages only partly in the range are kept. Elsewhere it does nothing.
  package static func discardPages(_ address: UnsafeMutableRawPointer, count: Int) {
    #if os(Linux)
      let page = UInt(4096)
      let start = (UInt(bitPattern: address) + page - 1) & ~(page - 1)
      let end = (UInt(bitPattern: address) + UInt(count)) & ~(page - 1)
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, Int(end - start), Int32(MADV_DONTNEED))
    #endif
  }
}
