/// Why `ZoneResolver.named(_:)` refused a time-zone name.
public enum ZoneError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not a possible IANA name (characters, `..`, an absolute path).
  case invalidName(String, reason: String)
  /// An offset spelled as a name (`GMT+2`, `UTC-05:00`); `suggestion` is the IANA
  /// name with that offset, when there is one (`Etc/GMT-2`).
  case offsetName(String, suggestion: String?)
  /// No such zone in the time-zone database at `directory`.
  case unknown(String, directory: String)
  /// The zone file exists but cannot be used.
  case unreadable(String, path: String, detail: String)

  /// The sentence the CLI prints: which zone and why it cannot be used.
  public var description: String {
    switch self {
    case .invalidName(let name, let reason):
      return "'\(name)' is not a time-zone name: \(reason)."
    case .offsetName(let name, let suggestion):
      guard let suggestion else {
        return "'\(name)' is an offset, not a time-zone name, and no IANA Etc zone has it: name a place with that "
          + "offset, such as Asia/Kolkata for +05:30."
      }
      return "'\(name)' is an offset, not a time-zone name: use \(suggestion) (IANA's Etc/GMT names invert the "
        + "sign: Etc/GMT-2 is UTC+2), or a place such as Europe/Amsterdam, whose rules follow its summer time."
    case .unknown(let name, let directory):
      return "unknown time zone '\(name)' (not in the time-zone database at \(directory); set TZDIR to use another)."
    case .unreadable(let name, let path, let detail):
      return "time zone '\(name)' cannot be used: \(path): \(detail)."
    }
  }
}
