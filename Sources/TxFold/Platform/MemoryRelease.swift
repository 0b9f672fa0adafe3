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
/// it is looked up by name: where it is missing, trimming does nothing; so is
/// `mallopt`, for `limitArenas`.
package enum MemoryRelease {
  static func trim() {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
      typealias MallocTrim = @convention(c) (Int) -> Int32
      _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    #endif
  }

  /// Lets glibc's allocator keep at most `count` arenas (at least 2) for the
  /// whole process; the command line calls it once, before any thread starts.
  ///
  /// Why: by default glibc gives each new thread an arena of its own, up to
  /// eight per core. The per-account runs hand each chunk's table from the
  /// worker that folded it to the thread that writes it, and a night runs
  /// the id reader, the workers, the fold and the writer at once: every
  /// thread's arena grew to its own peak, and identical two-thread nights
  /// peaked anywhere between 141 and 211 MiB. With one arena per core they
  /// peaked at 131–155 MiB, as fast. Nothing allocates per record, so the
  /// threads seldom wait on a shared arena.
  package static func limitArenas(to count: Int) {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      // glibc's M_ARENA_MAX.
      let arenaMax: Int32 = -8
      _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, Int32(clamping: max(2, count)))
    #endif
  }
}
