/// Why writing an output failed.
///
/// A broken pipe (the reader of standard output went away, as with
/// `txfold … | head`) is flagged so the CLI can end quietly instead of
/// reporting an error; an output that could not be created at all (its
/// directory is missing, say) is flagged so the CLI can tell it from a
/// failure while writing.
public struct OutputError: Error, Sendable, CustomStringConvertible {
  /// The output's name for messages (`-` for standard output).
  public var path: String
  /// What went wrong, e.g. the system's text for the error, without a final full stop.
  public var reason: String
  /// Whether the write failed because the reading end of a pipe was closed (`EPIPE`).
  public var isBrokenPipe: Bool
  /// Whether the output could not be created or opened, before anything was written.
  public var isCannotCreate: Bool

  /// Describes a failed write to `path`.
  public init(path: String, reason: String, isBrokenPipe: Bool = false, isCannotCreate: Bool = false) {
    self.path = path
    self.reason = reason
    self.isBrokenPipe = isBrokenPipe
    self.isCannotCreate = isCannotCreate
  }

  /// The sentence the CLI prints: which output and what failed.
  public var description: String {
    isCannotCreate ? "Cannot create output '\(path)': \(reason)." : "Write error in '\(path)': \(reason)."
  }
}
