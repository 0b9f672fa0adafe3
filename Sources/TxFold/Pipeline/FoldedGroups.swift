/// A finished `group` fold: the merged table and the run's accounting,
/// before any report is made from them (``GroupPipeline/fold(paths:)``).
///
/// ``render(format:options:flush:)`` writes the report; the `json`, `jsonl`
/// and `csv` formats are written straight from the fold's table, with no
/// ``GroupReport`` built first, in the same bytes ``ReportRenderer`` writes
/// from ``report``. With more than one thread (the pipeline's
/// ``GroupOptions/threads``), pieces of the report are written on two
/// threads at once and handed to `flush` in order.
///
/// ```swift
/// let folded = try GroupPipeline(options: options).fold(paths: ["dump.jsonl"])
/// try folded.render(format: .json) { (chunk: inout [UInt8]) throws(WriteError) in
///   try output.write(chunk)
///   chunk.removeAll(keepingCapacity: true)
/// }
/// ```
public final class FoldedGroups {
  /// The run's accounting.
  public let stats: RunStats
  let table: GroupTable
  /// Whether the report lists the groups' kept members.
  let members: Bool
  /// Threads that may write the report.
  let threads: Int
  /// About how much of the report a piece written on another thread holds,
  /// in groups (2 each) and kept members (1 each): with members, some 150 KB
  /// of `json`. (Tests make pieces small.)
  var pieceWeight = defaultPieceWeight
  static let defaultPieceWeight = 1_024

  init(table: GroupTable, stats: RunStats, members: Bool, threads: Int) {
    self.table = table
    self.stats = stats
    self.members = members
    self.threads = threads
  }

  /// The report as values, sectioned and ordered (what ``GroupPipeline/run(paths:)`` returns).
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members; makes a string per member.
  public var report: GroupReport { table.report(stats: stats, members: members) }

  /// Renders the report as `format`, passing the bytes to `flush` in pieces,
  /// as ``ReportRenderer/render(_:format:options:flush:)-(GroupReport,_,_,_)`` does with ``report``
  /// (the same bytes, the same contract for `flush`).
  ///
  /// - Parameters:
  ///   - options: Locale and colour for `.text`, locale for `.html`; ignored by the machine formats.
  /// - Complexity: O(size of the output + g log g); memory O(`ReportRenderer.flushThreshold` and
  ///   the largest group) for the machine formats, O(the report) for text and html.
  public func render<E: Error>(
    format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    guard TableReportWriter.formats.contains(format) else {
      try ReportRenderer.render(report, format: format, options: options, flush: flush)
      return
    }
    let writer = TableReportWriter(format: format, table: table, members: members)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(ReportRenderer.flushThreshold + ReportRenderer.flushThreshold / 4)
    writer.appendBeginning(to: &buffer)
    let pieces = pieces(of: writer)
    if threads > 1 && pieces.count > 1 {
      try Self.writeInPairs(pieces, writer: writer, to: &buffer, flush: flush)
    } else {
      try writer.appendGroups(0..<writer.order.count, to: &buffer, flush: flush)
    }
    writer.appendEnd(stats: stats, to: &buffer)
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// The report's groups cut into runs of about `pieceWeight`, in order.
  func pieces(of writer: TableReportWriter) -> [Range<Int>] {
    var pieces: [Range<Int>] = []
    var start = 0
    var weight = 0
    for position in writer.order.indices {
      weight += 2 + writer.memberCount(at: position)
      if weight >= pieceWeight {
        pieces.append(start..<(position + 1))
        start = position + 1
        weight = 0
      }
    }
    if start < writer.order.count { pieces.append(start..<writer.order.count) }
    return pieces
  }

  /// Writes the pieces two at a time: the first of each pair on this thread
  /// while a `ReportPieceThread` writes the second; then both in order.
  /// Memory holds two pieces and the buffer. A failing `flush` stops the
  /// writing (the second thread finishes its piece and ends).
  static func writeInPairs<E: Error>(
    _ pieces: [Range<Int>], writer: TableReportWriter, to buffer: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let helper = ReportPieceThread(writer: writer)
    defer { helper.finish() }
    var spare: [UInt8] = []
    var index = 0
    while index < pieces.count {
      let paired = index + 1 < pieces.count
      if paired {
        helper.write(pieces[index + 1], into: spare)
        spare = []
      }
      try writer.appendGroups(pieces[index], to: &buffer, flush: flush)
      if paired {
        let piece = helper.next()
        buffer.append(contentsOf: piece)
        spare = piece
        try BufferFlushing.flushIfFull(&buffer, flush)
      }
      index += 2
    }
  }
}
