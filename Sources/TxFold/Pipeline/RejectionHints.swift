/// The options (by their parameter names; the CLI names its flags) that would have accepted a large share of a run's records, for
/// the run summary (`RunStats.hints`).
///
/// "Large" is at least half of the records: then the flag is the likely fix,
/// not one record's accident. Computed once at the end of a run from counts.
enum RejectionHints {
  /// The share of records, in percent, from which a flag is suggested.
  static let thresholdPercent = 50

  static func hints(stats: RunStats, trailingCommas: Int, maxRecordBytes: Int, sample: [RecordRejection] = [])
    -> [String]
  {
    guard stats.lines > 0 else { return [] }
    func large(_ count: Int) -> Bool { count > 0 && count * 100 >= stats.lines * thresholdPercent }
    var hints: [String] = []
    if large(trailingCommas) {
      hints.append(
        "\(trailingCommas) of \(stats.lines) records were rejected for a trailing comma (',}' or ',]'); "
          + "allowTrailingCommas accepts them.")
    }
    let tooLarge = stats.rejectedByReason[.recordTooLarge] ?? 0
    if large(tooLarge) {
      hints.append(
        "\(tooLarge) of \(stats.lines) records are larger than maxRecordBytes (\(maxRecordBytes) bytes); "
          + "a larger maxRecordBytes accepts them.")
    }
    if stats.accepted > 0, let document = documentOverLines(sample) { hints.append(document) }
    return hints
  }

  /// A document over many lines with a wrapper TxFold does not recognise, read as JSON lines
  /// (Documentation/Guide.md, "Syntax errors and cut-off files"), whose records, one per line,
  /// were accepted while its opening lines were rejected: a line that is `{` alone opens no JSON
  /// line, and the keys on the rejected lines after it lead to the array `itemsPath` would read
  /// whole. `nil` unless both are seen (a run that accepted
  /// nothing gets the same advice from `NothingAccepted`).
  static func documentOverLines(_ sample: [RecordRejection]) -> String? {
    guard let start = sample.firstIndex(where: { $0.raw.filter { !$0.isJSONWhitespace } == [.openBrace] })
    else { return nil }
    let opening = sample[start]
    var document: [UInt8] = []
    var last = opening.line
    for rejection in sample[start...] where rejection.file == opening.file {
      document += rejection.raw
      document.append(.newline)
      last = rejection.line
    }
    let sketch = JSONShapeSketch(document)
    guard let path = sketch.likelyRecordArray ?? sketch.firstArray else { return nil }
    return
      "Lines \(opening.line)–\(last) of '\(opening.file)' look like one JSON document over many lines, read as "
      + "JSON lines (its wrapper is not a recognised one); if its array '\(path)' holds the records, "
      + "read it with itemsPath \(path)."
  }
}
