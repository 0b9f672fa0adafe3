/// Why a spill's temporary storage failed. The CLI maps every case
/// to exit 74 (I/O error).
package enum SpillError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The temporary directory or a file in it could not be created.
  case cannotCreate(path: String, reason: String)
  /// Writing a sorted run failed (a full disk, say).
  case writeFailed(path: String, reason: String)
  /// Reading a sorted run back failed.
  case readFailed(path: String, reason: String)
  /// A sorted run read back is not what was written.
  case corrupt(path: String, detail: String)

  /// `description` without its final period, for a sentence that gives it as the reason.
  package var clause: String { String(description.dropLast()) }

  /// The sentence the CLI prints: which file and what failed.
  package var description: String {
    switch self {
    case .cannotCreate(let path, let reason): return "Cannot create temporary sort storage '\(path)': \(reason)."
    case .writeFailed(let path, let reason): return "Write error in temporary sort file '\(path)': \(reason)."
    case .readFailed(let path, let reason): return "Read error in temporary sort file '\(path)': \(reason)."
    case .corrupt(let path, let detail): return "Temporary sort file '\(path)' is damaged: \(detail)."
    }
  }
}
