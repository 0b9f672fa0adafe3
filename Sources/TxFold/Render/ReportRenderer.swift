/// Renders a `GroupReport` in one of the `ReportFormat`s, streaming bytes.
///
/// The writers append UTF-8 to one buffer and hand it to a `flush` closure
/// whenever it passes `flushThreshold` bytes (checked at least after each
/// group), and once at the end. So a large report never sits in memory
/// twice, and the caller decides where bytes go: a file, standard output, a
/// test's array.
///
/// ```swift
/// try ReportRenderer.render(report, format: .json) { (chunk: inout [UInt8]) throws(WriteError) in
///   try output.write(chunk)
///   chunk.removeAll(keepingCapacity: true)
/// }
/// ```
public enum ReportRenderer {
  /// The buffer size past which the writers flush (64 KiB).
  public static let flushThreshold = BufferFlushing.threshold

  /// Renders `report` as `format`, passing the bytes to `flush` in pieces.
  ///
  /// `flush` receives the buffer when it has grown past `flushThreshold`
  /// bytes and once at the end (every format writes at least one line, so
  /// that last call always carries bytes). It should consume the bytes and
  /// empty the buffer with `removeAll(keepingCapacity: true)`; the renderer
  /// also empties it after each call, so bytes are never handed over twice.
  /// An error thrown by `flush` stops rendering and is rethrown unchanged.
  ///
  /// - Parameters:
  ///   - options: Locale and colour for `.text`, locale for `.html`; ignored by the machine formats.
  /// - Complexity: O(size of the output); memory O(`flushThreshold` + the
  ///   largest group).
  public static func render<E: Error>(
    _ report: GroupReport, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(flushThreshold + flushThreshold / 4)
    switch format {
    case .text:
      try TextReportWriter(options: options).write(report, to: &buffer, flush: flush)
    case .json:
      try JSONReportWriter().write(report, to: &buffer, flush: flush)
    case .jsonl:
      try JSONLinesReportWriter().write(report, to: &buffer, flush: flush)
    case .csv:
      try CSVReportWriter().write(report, to: &buffer, flush: flush)
    case .html:
      try HTMLReportWriter(locale: options.locale, source: options.source).write(report, to: &buffer, flush: flush)
    }
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Renders `report` as `format` into one byte array (for tests and small
  /// in-memory reports; use `render(_:format:options:flush:)` to stream).
  public static func renderToBytes(
    _ report: GroupReport, format: ReportFormat, options: TextReportOptions = TextReportOptions()
  ) -> [UInt8] {
    BufferFlushing.collect { flush in render(report, format: format, options: options, flush: flush) }
  }

  /// Renders a summary `report` as `format`, passing the bytes to `flush` in
  /// pieces as `render(_:format:options:flush:)` does for a group report.
  ///
  /// - Parameters:
  ///   - report: the summary, in the order its entries are to be shown.
  ///   - format: the format to write.
  ///   - options: locale, colour and chart width for `.text` (the bar chart
  ///     fills `width`, 80 when it is `nil`), locale and source for `.html`;
  ///     ignored by the machine formats.
  ///   - flush: takes the bytes as the buffer fills, and once at the end.
  /// - Complexity: O(output size).
  public static func render<E: Error>(
    _ report: SummaryReport, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try SummaryRenderer.render(report, format: format, options: SummaryTextOptions(options), flush: flush)
  }

  /// Renders a summary `report` as `format` into one byte array.
  public static func renderToBytes(
    _ report: SummaryReport, format: ReportFormat, options: TextReportOptions = TextReportOptions()
  ) -> [UInt8] {
    SummaryRenderer.renderToBytes(report, format: format, options: SummaryTextOptions(options))
  }

  /// Renders a list document `report` (the `list --format json` value) as
  /// `format`, with each row's date in `zone`.
  ///
  /// - Throws: `SumOverflow` when the sum of the report's transactions no
  ///   longer fits in 128 bits, or what `flush` threw, as it is.
  public static func render(
    _ report: ListReport, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    zone: ZoneResolver = .asWritten, flush: (inout [UInt8]) throws -> Void
  ) throws {
    var remaining = report.transactions[...]
    do throws(ListRenderer.Failure<Never, any Error>) {
      try ListRenderer.render(
        context: report.context(zone: zone), format: format, options: options,
        next: { () throws(Never) in remaining.popFirst() }, flush: flush)
    } catch {
      switch error {
      case .sumOverflow(let overflow): throw overflow
      case .output(let output): throw output
      }
    }
  }

  /// Renders a list document `report` as `format` into one byte array.
  ///
  /// - Throws: `SumOverflow` when the sum of the report's transactions no longer fits in 128 bits.
  public static func renderToBytes(
    _ report: ListReport, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    zone: ZoneResolver = .asWritten
  ) throws(SumOverflow) -> [UInt8] {
    try ListRenderer.renderToBytes(
      report.transactions, context: report.context(zone: zone), format: format, options: options)
  }

  /// Hands `buffer` to `flush` and empties it once it has passed `flushThreshold`.
  @inline(__always)
  static func flushIfFull<E: Error>(
    _ buffer: inout [UInt8], _ flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try BufferFlushing.flushIfFull(&buffer, flush)
  }
}
