import TxFold

// The CLI's wording of library errors. The library names options as its API
// spells them (`maxRejects`, `memberLimit`); a user of `txfold` knows them as
// flags, so the messages that name an option are reworded here.

extension PipelineError {
  /// `description`, with options named by their flags.
  var commandLineDescription: String {
    switch self {
    case .tooManyRejects(let limit, let last):
      return "More than \(limit) records rejected (--max-rejects); the last: \(last.message)"
    case .tooManyRejected(let failure):
      return failure.description.replacingOccurrences(of: "maxRejectRate", with: "--max-reject-rate")
    case .input, .strictRejection, .sumOverflow, .rejectOutput, .nothingAccepted, .spill, .invalidOptions:
      return description
    case .accountMerge(let error):
      return error.commandLineDescription
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
