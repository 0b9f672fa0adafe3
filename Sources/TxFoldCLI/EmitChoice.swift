import ArgumentParser

/// `--emit report|partial`, shared by `group` and `merge`.
enum EmitChoice {
  /// Whether `value` asks for a partial state; refuses unknown values and `--dedupe` with a partial.
  static func isPartial(_ value: String, dedupe: Bool = false) throws -> Bool {
    switch value {
    case "report":
      return false
    case "partial":
      if dedupe {
        throw ValidationError(
          "--dedupe cannot be combined with --emit partial: which record wins for an id depends on every shard, "
            + "so deduplicated partials would not merge exactly. Run --dedupe over the whole input in one run.")
      }
      return true
    default:
      throw ValidationError("--emit must be report or partial, not '\(value)'.")
    }
  }
}
