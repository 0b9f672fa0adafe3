/// The settings a partial state was folded with. Partials merge only when these
/// are equal, because only then is the merge the same as one run over all the
/// input (Documentation/Formats.md, "The partial format, version 3").
///
/// - `memberLimit` decides which members a group keeps;
/// - `schema`, `maxRecordBytes` and `allowTrailingCommas` decide which records
///   are accepted and what they mean;
/// - `timezone` decides the days and the instants of offset-less timestamps.
///
/// `--dedupe` is not a setting here: deduplication needs every id's winner and
/// the input order across shards, which a bounded partial cannot carry, so
/// `--dedupe` and `--emit partial` do not combine (see `PartialState`).
package struct PartialSettings: Sendable, Hashable {
  /// The most members a group keeps (`Int.max` for `--members all`).
  package var memberLimit: Int
  /// The schema the records were read with (`backbase`).
  package var schema: String
  /// The canonical IANA name of `--timezone` (`UTC` for every zone that is
  /// UTC at all instants), or `nil` for dates as written.
  package var timezone: String?
  /// `--max-record-bytes`.
  package var maxRecordBytes: Int
  /// `--allow-trailing-commas`.
  package var allowTrailingCommas: Bool

  /// Creates settings from the values a run was folded with.
  package init(memberLimit: Int, schema: String, timezone: String?, maxRecordBytes: Int, allowTrailingCommas: Bool) {
    self.memberLimit = memberLimit
    self.schema = schema
    self.timezone = timezone
    self.maxRecordBytes = maxRecordBytes
    self.allowTrailingCommas = allowTrailingCommas
  }

  /// Stands in until a per-account partial's header has been read (its own
  /// settings then replace it; no group is read with these).
  static let readingHeader = PartialSettings(
    memberLimit: Int.max, schema: "", timezone: nil, maxRecordBytes: 1, allowTrailingCommas: false)

  /// The first setting that differs, named as in the partial format
  /// (`memberLimit`, `schema`, `timezone`, `maxRecordBytes`,
  /// `allowTrailingCommas`), with the two values to show side by side
  /// (`self`'s first), or `nil` when the settings are equal.
  package func difference(from other: PartialSettings) -> (setting: String, mine: String, theirs: String)? {
    if memberLimit != other.memberLimit {
      return ("memberLimit", Self.text(memberLimit: memberLimit), Self.text(memberLimit: other.memberLimit))
    }
    if schema != other.schema { return ("schema", schema, other.schema) }
    if timezone != other.timezone, !Self.sameZone(timezone, other.timezone) {
      return ("timezone", timezone ?? "(none)", other.timezone ?? "(none)")
    }
    if maxRecordBytes != other.maxRecordBytes {
      return ("maxRecordBytes", String(maxRecordBytes), String(other.maxRecordBytes))
    }
    if allowTrailingCommas != other.allowTrailingCommas {
      return ("allowTrailingCommas", allowTrailingCommas ? "on" : "off", other.allowTrailingCommas ? "on" : "off")
    }
    return nil
  }

  /// Whether two `timezone` settings are one zone: equal names, or names this
  /// machine's time-zone database gives the same offsets at every instant
  /// (older partials may store `Etc/UTC` where this build stores `UTC`).
  static func sameZone(_ lhs: String?, _ rhs: String?) -> Bool {
    guard let lhs, let rhs else { return lhs == rhs }
    return ZoneResolver.equivalent(lhs, rhs)
  }

  /// `all` or the number.
  static func text(memberLimit: Int) -> String {
    memberLimit == Int.max ? "all" : String(memberLimit)
  }
}
