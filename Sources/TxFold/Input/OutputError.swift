/// Why writing an output failed.
///
/// A broken pipe (the reader of standard output went away, as with
/// `txfold … | head`) is flagged so the CLI can end quietly instead of
/// reporting an error.
public struct OutputError: Error, Sendable, CustomStringConvertible {
  /// The output's name for messages (`-` for standard output).
  public var path: String
  /// What went wrong, e.g. the system's text for the error.
  public var reason: String
  /// Whether the write failed because the reading end of a pipe was closed (`EPIPE`).
  public var isBrokenPipe: Bool

  /// Describes a failed write to `path`.
  public init(path: String, reason: String, isBrokenPipe: Bool = false) {
    self.path = path
    self.reason = reason
    self.isBrokenPipe = isBrokenPipe
  }

  public var description: String {
    "Write error in '\(path)': \(reason)."
  }
}
