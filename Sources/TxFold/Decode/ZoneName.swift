/// A time zone as `--timezone` names it, after validation: the canonical IANA
/// name (`UTC` for every zone that is UTC at all instants, such as `Etc/UTC`,
/// `Zulu` or `GMT`), which partial states store.
@usableFromInline package struct ZoneName: Sendable, Hashable, CustomStringConvertible {
  /// The zone's name as given (`Europe/Amsterdam`).
  public let identifier: String

  /// Wraps a zone name as written; nothing is looked up.
  public init(identifier: String) { self.identifier = identifier }

  /// The zone's name, as partial states store it.
  public var description: String { identifier }
}
