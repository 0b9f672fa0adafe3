import TxFold

// The CLI's wording of library errors. The library names options as its API
// spells them (`maxRejects`, `memberLimit`); a user of `txfold` knows them as
// flags, so the messages that name an option are reworded here.

/// The library's phrases that name an option by its parameter, and the flag wording `txfold` prints
/// instead: applied to every message `ExitStatus.complain` prints, to each rejection's detail before
/// it goes to the rejects file, and to the run summary's hints. Whole phrases, so that nothing else
/// in a message (a file name, a record's bytes) can match.
enum CommandLineWording {
  static let phrases: [(library: String, flags: String)] = [
    ("(allowTrailingCommas accepts it)", "(--allow-trailing-commas accepts it)"),
    ("allowTrailingCommas accepts ',]'", "--allow-trailing-commas accepts ',]'"),
    ("; allowTrailingCommas accepts them.", "; --allow-trailing-commas accepts them."),
    (
      "(or map one with a RecordSchema.custom field 'account')",
      "(or map one with --field account=PATH)"
    ),
    ("; schema detection (schema nil) chose none from it", "; --schema auto chose none from it"),
    (
      "map the field that holds it with accountField (RecordSchema.custom field 'account'), or take the account from the file name.",
      "map the field that holds it with --field account=PATH, or use --account-from-file."
    ),
    (
      "map the field that holds it with accountField (RecordSchema.custom field 'account').",
      "map the field that holds it with --field account=PATH."
    ),
    ("in this document (itemsPath)", "in this document (--items)"),
    (
      "larger than maxRecordBytes; raise it (e.g. to 16 MiB).",
      "larger than --max-record-bytes; raise it (e.g. --max-record-bytes 16M)."
    ),
    (
      "choose one with schema, or map the fields with RecordSchema.custom.",
      "choose one with --schema NAME, or map the fields with --field NAME=PATH."
    ),
    (
      "map the field that holds it with RecordSchema.custom, or choose another schema.",
      "map the field that holds it with --field NAME=PATH, or choose another with --schema NAME."
    ),
    ("holds the records, read it with itemsPath ", "holds the records, read it with --items "),
    ("(itemsPath transactions.", "(--items transactions."),
    ("name its array of records with itemsPath.", "name its array of records with --items PATH."),
    ("name it with itemsPath.", "name it with --items PATH."),
    ("See the shards' rejections (onRejection) for why.", "See the shards' rejects (--rejects FILE) for why."),
    ("records are larger than maxRecordBytes (", "records are larger than --max-record-bytes ("),
    ("bytes is longer than maxRecordBytes (", "bytes is longer than --max-record-bytes ("),
    ("it changed while deduplication read it", "it changed while --dedupe read it"),
    ("cannot keep the copy deduplication reads again", "cannot keep the copy --dedupe reads again"),
    ("a larger maxRecordBytes accepts them.", "a larger --max-record-bytes accepts them."),
    ("merge it with PartialMerger, not per account", "merge it without --per-account"),
    ("merge it per account (runPerAccountPartial)", "merge it with --per-account"),
    ("a partial folded with dedupe cannot be merged", "a partial folded with --dedupe cannot be merged"),
    (
      "fold the shard again with this version (GroupPipeline.runPartial)",
      "fold the shard again with this txfold (group --emit partial)"
    ),
    // The library names itself where the CLI names the program, and the CLI adds its pipe to the
    // commands that make an input readable.
    ("; convert each CR to LF first.", "; convert them first: tr '\\r' '\\n' < FILE | txfold ..."),
    (
      "; TxFold reads UTF-8. Convert it to UTF-8 first.",
      "; txfold reads UTF-8. Convert it first: iconv -f UTF-16 -t UTF-8 < FILE | txfold ..."
    ),
    (". TxFold reads JSON lines, a JSON array of records", ". txfold reads JSON lines, a JSON array of records"),
    ("which TxFold does not decompress in turn.", "which txfold does not decompress in turn."),
    (" (zstd -dc for a zstd file).", " | txfold ... (zstd -dc for a zstd file)."),
    (") it is read whole: booked and pending", " | txfold ...) it is read whole: booked and pending"),
    ("which TxFold does not read; decompress it first: ", "which txfold does not read; decompress it first: "),
    (", then read its output.", " | txfold ..."),
    ("; TxFold reads the first array and rejects", "; txfold reads the first array and rejects"),
    ("this version of TxFold reads version ", "this txfold reads version "),
    (
      "it is a TxFold partial state (GroupPipeline.runPartial), not a state file (NightlyState.write): merge it with the other partials (PartialMerger), not as the previous state",
      "it is a txfold partial state (from --emit partial), not a state file (from --state-out): give it to txfold merge, not to --state-in"
    ),
    ("which a run reads as an input, not as the previous state", "which is an input, not --state-in"),
    (
      "it is a TxFold state file (NightlyState.write), not a partial state: give it as the previous state (NightlyState(previous:)), not to the merge",
      "it is a txfold state file (from --state-out), not a partial state: give it to --state-in, not to txfold merge"
    ),
    ("not a TxFold state file", "not a txfold state file"),
    (
      "is a TxFold state file, not transactions: pass it as the previous state (NightlyState(previous:)), not as an input.",
      "is a txfold state file, not transactions: give it with --state-in, not as an input."
    ),
    (
      "is a TxFold partial state, not transactions: merge it with the other partials (PartialMerger), not as an input.",
      "is a txfold partial state, not transactions: merge it with the other partials (txfold merge), not as an input."
    ),
    ("it was written by a TxFold whose state version is ", "it was written by a txfold whose state version is "),
  ]

  /// `text` with the library's option phrases in flag wording.
  static func reword(_ text: String) -> String {
    var text = text
    for phrase in phrases where text.contains(phrase.library) {
      text = text.replacingOccurrences(of: phrase.library, with: phrase.flags)
    }
    return text
  }

  /// A rejection whose detail names flags (for the rejects file and messages).
  static func reword(_ rejection: RecordRejection) -> RecordRejection {
    var rejection = rejection
    rejection.detail = reword(rejection.detail)
    return rejection
  }
}

extension PipelineError {
  /// `description`, with options named by their flags.
  var commandLineDescription: String {
    switch self {
    case .tooManyRejects(let limit, let last):
      return "More than \(limit) records rejected (--max-rejects); the last: \(last.message)"
    case .tooManyRejected:
      return description.replacingOccurrences(of: "maxRejectRate", with: "--max-reject-rate")
    case .tooFewAccepted:
      return description.replacingOccurrences(of: "minAccepted", with: "--min-accepted")
    case .input, .strictRejection, .sumOverflow, .totalOverflow, .rejectOutput, .nothingAccepted, .spill,
      .invalidOptions:
      return description
    case .accountMerge(let error):
      return error.commandLineDescription
    case .state(let path, let problem):
      return "State file '\(Printable.escaped(path))': \(problem)."
    case .accountsOutOfOrder:
      return description.replacingOccurrences(
        of: "(sortedByAccount); run without it", with: "(--sorted-by-account); drop --sorted-by-account")
    }
  }
}

extension PartialStateError {
  /// The flag that sets each setting a partial records (`PartialSettings.difference(from:)`'s names).
  private static let flags = [
    "memberLimit": "--members", "schema": "--schema", "timezone": "--timezone", "maxRecordBytes": "--max-record-bytes",
    "allowTrailingCommas": "--allow-trailing-commas",
  ]

  /// `description`, with a mismatched setting named by its flag.
  var commandLineDescription: String {
    guard
      case .mismatch(
        let setting, let file, let line, let value, let referenceFile, let referenceLine, let referenceValue) =
        self
    else { return description }
    let reworded = PartialStateError.mismatch(
      setting: Self.flags[setting] ?? setting, file: file, line: line, value: value, referenceFile: referenceFile,
      referenceLine: referenceLine, referenceValue: referenceValue)
    return reworded.description
  }
}
