/// A time zone as `--timezone` names it, after validation: the canonical IANA
/// name (`UTC` for every zone that is UTC at all instants, such as `Etc/UTC`,
/// `Zulu` or `GMT`), which partial states store.
public struct ZoneName: Sendable, Hashable, CustomStringConvertible {
  public let identifier: String

  public init(identifier: String) { self.identifier = identifier }

  public var description: String { identifier }
}
