import Foundation
import TxFold

/// The one way the CLI writes to standard error: messages, the run summary and
/// the progress line.
///
/// Standard error may be closed (`2>&-`), a pipe whose reader went away, or a
/// full disk; none of that may crash the run or change its exit code, so a
/// failed write is dropped. (Foundation's `FileHandle.standardError.write`
/// traps on `EBADF`.)
enum StandardError {
  /// Held for each write: the progress ticker's thread, the signal waiter
  /// and the main thread never interleave within one another's lines.
  private static let lock = NSLock()

  /// Writes `text` as it is.
  static func write(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    var text = text
    text.withUTF8 { bytes in
      guard var pointer = bytes.baseAddress else { return }
      var remaining = bytes.count
      while remaining > 0 {
        let written = SystemCalls.writeBytes(SystemCalls.standardError, from: pointer, count: remaining)
        if written > 0 {
          pointer += written
          remaining -= written
        } else if written < 0 && SystemCalls.lastError == SystemCalls.ErrorCode.interrupted {
          continue
        } else {
          return
        }
      }
    }
  }
}
