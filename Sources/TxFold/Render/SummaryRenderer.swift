/// Renders a `SummaryReport` in one of the `ReportFormat`s, passing the bytes
/// to `flush` in pieces as `ReportRenderer` does.
///
/// Each writer documents its format: `SummaryTextWriter` (with the bar
/// chart), `SummaryJSONWriter` (`json`, `jsonl`), `SummaryCSVWriter`, `HTMLSummaryWriter`
/// (SVG bars).
package enum SummaryRenderer {
  /// Renders `report` as `format`.
  ///
  /// - Parameter options: locale, colour and chart width for `.text`;
  ///   ignored by the machine formats.
  /// - Complexity: O(output size).
  package static func render<E: Error>(
    _ report: SummaryReport, format: ReportFormat, options: SummaryTextOptions = SummaryTextOptions(),
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    var buffer: [UInt8] = []
    switch format {
    case .text: try SummaryTextWriter(options: options).write(report, to: &buffer, flush: flush)
    case .json: SummaryJSONWriter.write(report, lines: false, to: &buffer)
    case .jsonl: SummaryJSONWriter.write(report, lines: true, to: &buffer)
    case .csv: try SummaryCSVWriter.write(report, to: &buffer, flush: flush)
    case .html:
      try HTMLSummaryWriter(locale: options.locale, source: options.source, days: options.days).write(
        report, to: &buffer, flush: flush)
    }
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Renders `report` as `format` into one byte array.
  package static func renderToBytes(
    _ report: SummaryReport, format: ReportFormat, options: SummaryTextOptions = SummaryTextOptions()
  ) -> [UInt8] {
    BufferFlushing.collect { flush in render(report, format: format, options: options, flush: flush) }
  }
}
