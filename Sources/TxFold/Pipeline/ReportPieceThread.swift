import Foundation

/// A second thread that writes pieces of a report from a fold's table while
/// the calling thread writes others and hands bytes to the output
/// (`FoldedGroups.render`).
///
/// Why: the report is written after the fold, from one table; on two cores
/// the other core idled through it (a sixth of a `json` run's wall time).
/// The report's groups are cut into pieces (`TableReportWriter.appendGroups`
/// writes any run of them alone); the caller asks for every other piece
/// here, writes the ones between itself, and takes the results back in
/// order, so the bytes are those of one thread writing them all.
///
/// The writer (and its table) is only read, by both threads, while neither
/// changes it (`HandOff`); each piece's buffer belongs to one thread at a
/// time, handed over through the queues.
final class ReportPieceThread: Sendable {
  private let writer: HandOff<TableReportWriter>
  private let requests = BlockingQueue<(pieces: Range<Int>, buffer: [UInt8])>()
  private let results = BlockingQueue<[UInt8]>()
  private let finished = DispatchGroup()

  init(writer: TableReportWriter) {
    self.writer = HandOff(writer)
    finished.enter()
    let thread = Thread { [self] in
      while let request = requests.pop() {
        var buffer = request.buffer
        buffer.removeAll(keepingCapacity: true)
        self.writer.value.appendGroups(request.pieces, to: &buffer)
        results.push(buffer)
      }
      finished.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Asks for the groups at `positions` of the writer's order, written into
  /// `buffer` (emptied first; passed to reuse its memory).
  func write(_ positions: Range<Int>, into buffer: [UInt8]) {
    requests.push((positions, buffer))
  }

  /// The next piece asked for, written, in the order asked.
  func next() -> [UInt8] {
    // Every request gets its result; `next` is called once per request.
    guard let buffer = results.pop() else { preconditionFailure("the result queue is never closed") }
    return buffer
  }

  /// Stops the thread once it has written what was asked, and waits for it.
  func finish() {
    requests.close()
    finished.wait()
  }
}
