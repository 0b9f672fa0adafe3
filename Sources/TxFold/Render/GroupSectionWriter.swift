/// A machine format's writer of a `group` report's sections and groups, in
/// report order: `JSONReportWriter`, `JSONLinesReportWriter`,
/// `CSVReportWriter` and the per-account `json` object
/// (`AccountReportWriter.SectionsJSON`).
///
/// The walk and the format are apart (simdjson's one walk, many visitors):
/// a report's sections are walked here (`appendSections`), a fold's table by
/// `TableGroupViews.appendGroups`, and either walk feeds any format, so a
/// format is written by one piece of code whatever the source.
protocol GroupSectionWriter {
  /// A section begins (`first`: the report's first); `appendState` appends
  /// its state as a JSON string.
  func appendSectionStart(first: Bool, appendState: (inout [UInt8]) -> Void, to out: inout [UInt8])
  /// One group of the section (`first`, `last`: the section's first, last).
  func appendGroup<Group: GroupView>(_ group: Group, first: Bool, last: Bool, to out: inout [UInt8])
  /// The section ends (`last`: the report's last).
  func appendSectionEnd(last: Bool, to out: inout [UInt8])
}

extension GroupSectionWriter {
  /// Writes a report's `sections`, calling `afterEachGroup` with the buffer
  /// after each group (where a writer checks whether to flush).
  func appendSections<E: Error>(
    _ sections: [ReportSection], to out: inout [UInt8], afterEachGroup: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    for (sectionIndex, section) in sections.enumerated() {
      appendSectionStart(
        first: sectionIndex == 0, appendState: { JSONEscaping.appendString(section.state, to: &$0) }, to: &out)
      for (groupIndex, group) in section.groups.enumerated() {
        appendGroup(group, first: groupIndex == 0, last: groupIndex == section.groups.count - 1, to: &out)
        try afterEachGroup(&out)
      }
      appendSectionEnd(last: sectionIndex == sections.count - 1, to: &out)
    }
  }
}

/// A `GroupSectionWriter` of a whole `group` report (`json`, `jsonl`, `csv`),
/// with what goes before the first group and after the last.
protocol GroupDocumentWriter: GroupSectionWriter {
  /// What comes before the first group (`empty`: the report has no group).
  func appendBeginning(empty: Bool, to out: inout [UInt8])
  /// What comes after the last group.
  func appendEnd(empty: Bool, stats: RunStats, to out: inout [UInt8])
}

extension GroupDocumentWriter {
  /// Writes the whole `report`, handing full buffers to `flush` after a group.
  func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    appendBeginning(empty: report.sections.isEmpty, to: &out)
    try appendSections(
      report.sections, to: &out,
      afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
    appendEnd(empty: report.sections.isEmpty, stats: report.stats, to: &out)
  }
}
