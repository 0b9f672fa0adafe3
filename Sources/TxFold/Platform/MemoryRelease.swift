#if canImport(Glibc)
  import Glibc
#endif

/// Hands memory the process freed back to the system, where the C library can.
///
/// Why: glibc's allocator keeps one arena per thread and keeps freed memory
/// in it. When the per-account fold's workers have written their tables out,
/// that memory is free but still counted against the process; the merge that
/// follows runs on other threads, whose allocations come from other arenas,
/// so without a trim the two phases' peaks add up instead of the second
/// reusing the first's memory.
///
/// `malloc_trim` is glibc's own (Swift's Glibc module does not export it), so
/// it is looked up by name: where it is missing, trimming does nothing.
enum MemoryRelease {
  static func trim() {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
      typealias MallocTrim = @convention(c) (Int) -> Int32
      _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    #endif
  }
}
