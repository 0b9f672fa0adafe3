import Foundation
import TxFold

/// The temporary output files to remove if the process is interrupted, as a
/// null-terminated array of C strings (the fallback handler below may only
/// call async-signal-safe functions such as `unlink` and `_exit`).
nonisolated(unsafe) private var pendingTemporaryFiles: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// The temporary directories to remove too — the spills', whose files have no
/// names on disk (`SpillDirectory`), so `rmdir` is enough: a run may make
/// several (`--dedupe`'s id table and input copies, a per-account fold's runs).
/// A fixed array, so the handler reads it without allocating; `nil` slots are free.
private let temporaryDirectorySlots = 8
nonisolated(unsafe) private let pendingTemporaryDirectories: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
  let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: temporaryDirectorySlots)
  slots.initialize(repeating: nil, count: temporaryDirectorySlots)
  return slots
}()

/// `SignalGuard.onTermination`'s hook; read and written under `TemporaryNames.lock` only.
nonisolated(unsafe) private var terminationHook: ((Int32) -> Void)?
/// `SignalGuard.onCleanup`'s hook; read and written under `TemporaryNames.lock` only.
nonisolated(unsafe) private var cleanupHook: (() -> Void)?
/// The exit status the run's outputs already say (`SignalGuard.settle`), or -1 while it is open;
/// written under `TemporaryNames.lock`, read by the signal thread under it and by the fallback handler.
nonisolated(unsafe) private var settledExitStatus: Int32 = -1

/// Makes SIGINT and SIGTERM leave no partial output file and no spill
/// directory, and lets a closed output pipe surface as `EPIPE` instead of
/// killing the process.
///
/// The two signals are blocked in every thread (the mask is set before any
/// other thread starts, and threads inherit it) and taken by a thread of
/// their own with `sigwait`. That thread cleans up as ordinary code: it first
/// takes `TemporaryNames.lock`, under which every temporary name is made and
/// made known (`deferringSignals` here; spill directories and runs in the
/// library), and never releases it, so it can neither miss a directory a
/// worker has just made nor race one being made. A signal handler could not
/// take a lock; the one that remains is a fallback for a thread that
/// unblocked the signals, and does what it safely can.
enum SignalGuard {
  /// Blocks the signals, starts the thread that waits for them and installs
  /// the fallback handlers; call once at start, before any other thread.
  static func install() {
    SystemCalls.ignoreSignal(SignalSet.brokenPipe)
    // A handler rather than the default: an ignored signal (a job started in
    // the background by a script) would otherwise be discarded, not waited for.
    SystemCalls.setSignalHandler(SignalSet.interrupt, handleTermination)
    SystemCalls.setSignalHandler(SignalSet.terminate, handleTermination)
    SystemCalls.blockSignals(.termination)
    let waiter = Thread {
      let received = SystemCalls.waitForSignal(in: .termination)
      TemporaryNames.lock.lock()
      if settledExitStatus < 0 {
        terminationHook?(received)
        cleanupHook?()
      }
      removeTemporaryNames()
      // 128 + signal number, the shell's convention: 130 for SIGINT; once settled, what the outputs say.
      SystemCalls.exitImmediately(settledExitStatus < 0 ? 128 + received : settledExitStatus)
    }
    waiter.start()
  }

  /// Returns at once, unless SIGINT or SIGTERM is being handled: then it never
  /// returns, as the signal thread holds `TemporaryNames.lock` until it ends
  /// the process. The cleanup removes outputs under a thread that may still be
  /// writing them (an `--output-dir` page); what that thread then fails with
  /// is the signal's doing, not an error to print or record. (It waits for the
  /// lock without holding it, so a write to a stalled standard error never
  /// keeps the signal thread from ending the run.)
  static func unlessTerminating() {
    TemporaryNames.lock.lock()
    TemporaryNames.lock.unlock()
  }

  /// Runs `body` so that an interrupt is taken only before or after it, so a
  /// temporary file it creates is protected before cleanup can look for it.
  static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    try TemporaryNames.creating(body)
  }

  /// What the run does on SIGINT or SIGTERM before its temporary files are
  /// removed (writing the stats document), given the signal's number; `nil`
  /// for nothing. It runs on the signal thread, under `TemporaryNames.lock`,
  /// so never while the main thread commits or fails under `deferringSignals`.
  static func onTermination(_ hook: ((Int32) -> Void)?) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    terminationHook = hook
  }

  /// What else the cleanup removes on SIGINT or SIGTERM (an `--output-dir`'s
  /// private directory and its pages), after `onTermination`'s hook; `nil` for
  /// nothing. Like that hook it runs on the signal thread under the lock; the
  /// fallback handler cannot run it.
  static func onCleanup(_ hook: (() -> Void)?) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    cleanupHook = hook
  }

  /// Marks the run's end as decided: its outputs are committed or discarded and its stats
  /// document written with `exitStatus`. A signal after this ends the process with that status
  /// rather than 128 + the signal, so that the exit status and the document never disagree (the
  /// run summary may still be on its way to a slow standard error). Call under `deferringSignals`.
  static func settle(exitStatus: Int32) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    settledExitStatus = exitStatus
  }

  /// The temporary file the cleanup should remove (or `nil`).
  static func protect(temporaryFile path: String?) {
    protect(temporaryFiles: path.map { [$0] } ?? [])
  }

  /// The temporary files the cleanup should remove, replacing the earlier list.
  static func protect(temporaryFiles paths: [String]) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
    for (index, path) in paths.enumerated() { list[index] = SystemCalls.copyCString(path) }
    list[paths.count] = nil
    // The fallback handler sees the old list or the new one, each complete.
    let previous = pendingTemporaryFiles
    pendingTemporaryFiles = list
    if let previous {
      var index = 0
      while let path = previous[index] {
        SystemCalls.releaseCString(path)
        index += 1
      }
      previous.deallocate()
    }
  }

  /// The (empty) temporary directory the cleanup should remove (or `nil`).
  static func protect(temporaryDirectory path: String?) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    guard let path else {
      for slot in 0..<temporaryDirectorySlots {
        SystemCalls.releaseCString(pendingTemporaryDirectories[slot])
        pendingTemporaryDirectories[slot] = nil
      }
      return
    }
    // The first free slot; with none (more directories than a run makes), the last is replaced.
    var slot = 0
    while slot < temporaryDirectorySlots - 1 && pendingTemporaryDirectories[slot] != nil { slot += 1 }
    SystemCalls.releaseCString(pendingTemporaryDirectories[slot])
    pendingTemporaryDirectories[slot] = SystemCalls.copyCString(path)
  }
}

/// Removes the registered files and directory; async-signal-safe: only C strings, and only the
/// `SystemCalls` wrappers that are the bare C calls, inlined (`unlink`, `rmdir`, `errno`,
/// `nanosleep`, `_exit`).
private func removeTemporaryNames() {
  if let list = pendingTemporaryFiles {
    var index = 0
    while let path = list[index] {
      SystemCalls.removeFile(path)
      index += 1
    }
  }
  for slot in 0..<temporaryDirectorySlots {
    guard let path = pendingTemporaryDirectories[slot] else { continue }
    // Only the fallback handler can find a run that still has its name (a
    // worker between creating and unlinking it, outside the lock's reach):
    // retry for up to 100 ms. `rmdir` and `nanosleep` are safe here.
    var tries = 0
    while SystemCalls.removeDirectory(path) != 0
      && SystemCalls.lastError == SystemCalls.ErrorCode.directoryNotEmpty && tries < 20
    {
      SystemCalls.pause(nanoseconds: 5_000_000)
      tries += 1
    }
  }
}

/// The fallback, for a signal delivered to a thread that unblocked it.
private func handleTermination(_ signalNumber: Int32) {
  removeTemporaryNames()
  SystemCalls.exitImmediately(settledExitStatus < 0 ? 128 + signalNumber : settledExitStatus)
}
