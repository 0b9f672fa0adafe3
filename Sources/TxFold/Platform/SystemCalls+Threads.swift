#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// `setpriority(2)` on the calling thread: raises its nice value by `steps`
  /// (a lower priority), from what it is now; `false` when the call failed or
  /// the system has no per-thread nice value.
  ///
  /// On Linux the nice value belongs to each thread, and `PRIO_PROCESS` with
  /// id 0 names the calling thread. Elsewhere (Darwin) the same call would
  /// lower the whole process, so it is not made. A thread can always lower
  /// its own priority; it may not be able to raise it again, so the pipeline
  /// does this only on worker threads that end with the run.
  package static func lowerCallingThreadPriority(by steps: Int32) -> Bool {
    #if os(Linux)
      // -1 is also a valid nice value: only errno tells a failure (`callingThreadNiceness`).
      guard let current = callingThreadNiceness() else { return false }
      return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(current + steps, 19)) == 0
    #else
      return false
    #endif
  }

  /// `getpriority(2)` of the calling thread: its nice value, or `nil` where
  /// threads have none of their own (as `lowerCallingThreadPriority`).
  package static func callingThreadNiceness() -> Int32? {
    #if os(Linux)
      errno = 0
      let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      return current == -1 && errno != 0 ? nil : current
    #else
      return nil
    #endif
  }
}
