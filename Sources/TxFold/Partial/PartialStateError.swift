/// Why partial states could not be read or merged. The CLI maps `input` to
/// exit 66 (cannot open) or 74 (read error, corrupt gzip), `temporaryStorage`
/// to 74 and the rest to 65.
public enum PartialStateError: Error, Sendable, CustomStringConvertible {
  /// An input could not be opened or read, or its gzip stream is damaged.
  case input(InputError)
  /// A line is not what the partial format allows at that point.
  case malformed(file: String, line: Int, detail: String)
  /// A partial of a format version this build does not read.
  case unsupportedVersion(file: String, line: Int, version: String)
  /// Two partials were folded with different settings: `value` in `file`,
  /// `referenceValue` in the first partial read (`referenceFile`).
  case mismatch(
    setting: String, file: String, line: Int, value: String, referenceFile: String, referenceLine: Int,
    referenceValue: String)
  /// A partial folded from an input that an earlier partial (in
  /// `referenceFile`) was also folded from: merging it would count it twice.
  /// `input` is that input's fingerprint: its size and hash (`900 bytes, xxh64 0123456789abcdef`).
  case duplicateInput(file: String, line: Int, referenceFile: String, referenceLine: Int, input: String)
  /// A merged count or exact total no longer fits (`what` says which).
  case overflow(what: String)
  /// A merge of more partials than may be open at once could not write or
  /// read its temporary runs; `reason` is the sentence that says which file and why.
  case temporaryStorage(String)

  /// The sentence the CLI prints: which partial, where, and what is wrong.
  public var description: String {
    switch self {
    case .input(let error):
      return error.description
    case .malformed(let file, let line, let detail):
      // A whole file of another kind is named for what it is, not as a partial gone wrong.
      if detail == PartialMerger.stateNotPartial { return "'\(file)': \(detail)." }
      return "Malformed partial state: \(detail) (\(file), line \(line))."
    case .unsupportedVersion(let file, let line, let version):
      let why: String
      switch version {
      case "1":
        why =
          ", and version 1 carries no fingerprint of its input, so a partial given twice could not be told; "
          + "fold the shard again with this version (GroupPipeline.runPartial)"
      case "2":
        why =
          ", and version 2 carries no count per currency (csv's currencyCount); "
          + "fold the shard again with this version (GroupPipeline.runPartial)"
      default: why = ""
      }
      return "Unsupported partial state format version \(version): this version of TxFold reads version "
        + "\(PartialState.formatVersion) (per-account partials: \(AccountPartialWriter.formatVersion))\(why) "
        + "(\(file), line \(line))."
    case .mismatch(let setting, let file, let line, let value, let referenceFile, let referenceLine, let referenceValue):
      return "Cannot merge partial states folded with different settings: \(setting) \(value) in '\(file)' "
        + "(line \(line)) but \(referenceValue) in '\(referenceFile)' (line \(referenceLine))."
    case .duplicateInput(let file, let line, let referenceFile, let referenceLine, let input):
      return "The same input is merged twice: the partial in '\(file)' (line \(line)) and the one in "
        + "'\(referenceFile)' (line \(referenceLine)) were both folded from the input of \(input); merging "
        + "would count its records twice."
    case .overflow(let what):
      return "\(what) overflows when merged; no report is written."
    case .temporaryStorage(let reason):
      return reason
    }
  }
}
