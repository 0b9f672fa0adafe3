/// Renders a transaction list in one of the `ReportFormat`s, streaming:
/// transactions are pulled one at a time, written, and summed (the sum line
/// covers exactly what is shown), and the bytes go to `flush` in pieces of
/// about `ReportRenderer.flushThreshold`, as for `group`.
///
/// ```swift
/// let list = try ListPipeline(options: options).run(paths: paths)
/// let context = ListContext(stats: list.stats, matched: list.matched, page: list.page)
/// let sum = try ListRenderer.render(context: context, format: .json, next: list.next) {
///   (chunk: inout [UInt8]) throws(OutputError) in
///   try output.write(chunk)
///   chunk.removeAll(keepingCapacity: true)
/// }
/// ```
///
/// Each writer documents its format: `ListTextWriter`, `ListJSONWriter`
/// (`json`, `jsonl`), `ListCSVWriter`, `HTMLListWriter`.
package enum ListRenderer {
  /// Why rendering stopped.
  package enum Failure<SourceFailure: Error, OutputFailure: Error>: Error {
    /// Pulling the next transaction (`next`) threw.
    case source(SourceFailure)
    /// The sum of what is shown no longer fits in 128 bits.
    case sumOverflow(SumOverflow)
    /// `flush` threw.
    case output(OutputFailure)
  }

  /// Pulls every transaction from `next`, writes the list as `format`, and
  /// returns the sum of what was shown.
  ///
  /// - Complexity: O(output size); memory O(`flushThreshold`).
  @discardableResult
  package static func render<S: Error, E: Error>(
    context: ListContext, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    next: () throws(S) -> Transaction?, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(Failure<S, E>) -> SelectionSum {
    switch format {
    case .text:
      var writer = ListTextWriter(options: options, context: context)
      return try render(&writer, next: next, flush: flush)
    case .json, .jsonl:
      var writer = ListJSONWriter(layout: format == .jsonl ? .lines : .document, context: context)
      return try render(&writer, next: next, flush: flush)
    case .csv:
      var writer = ListCSVWriter(context: context)
      return try render(&writer, next: next, flush: flush)
    case .html:
      var writer = HTMLListWriter(options: options, context: context)
      return try render(&writer, next: next, flush: flush)
    }
  }

  /// Renders transactions already in memory (e.g. a `TransactionQueryResult`'s page) into one byte array.
  package static func renderToBytes(
    _ transactions: [Transaction], context: ListContext, format: ReportFormat,
    options: TextReportOptions = TextReportOptions()
  ) throws(SumOverflow) -> [UInt8] {
    var iterator = transactions.makeIterator()
    do throws(Failure<Never, Never>) {
      return try BufferFlushing.collect { (flush) throws(Failure<Never, Never>) in
        try render(
          context: context, format: format, options: options, next: { () throws(Never) in iterator.next() },
          flush: flush)
      }
    } catch {
      switch error {
      case .sumOverflow(let error): throw error
      }
    }
  }

  static func render<W: ListFormatWriter, S: Error, E: Error>(
    _ writer: inout W, next: () throws(S) -> Transaction?, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(Failure<S, E>) -> SelectionSum {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(ReportRenderer.flushThreshold + ReportRenderer.flushThreshold / 4)
    let result = try appendPage(&writer, next: next, to: &buffer, flush: flush)
    do throws(E) {
      try flush(&buffer)
    } catch {
      throw .output(error)
    }
    return result
  }

  /// One list, from `writer.begin` to `writer.finish`, into `buffer` (flushed
  /// whenever full): the one-list report and each account's page of
  /// `--per-account` render and sum the same way.
  @discardableResult
  static func appendPage<W: ListFormatWriter, S: Error, E: Error>(
    _ writer: inout W, next: () throws(S) -> Transaction?, to buffer: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(Failure<S, E>) -> SelectionSum {
    writer.begin(to: &buffer)
    let result = try appendRows(next: next, to: &buffer, flush: flush) {
      (transaction, sum, buffer) throws(SumOverflow) in
      try sum.add(transaction)
      // The sum above already added amount + fee, so this cannot overflow.
      let total = transaction.fee.flatMap { transaction.amount.adding($0) } ?? transaction.amount
      writer.append(transaction, total: total, to: &buffer)
    }
    writer.finish(sum: result, to: &buffer)
    return result
  }

  /// `render` for the parallel list's entries (`ListEntryLayout`), whose
  /// rows the workers rendered already (`ListRowStyle`): `csv`, `json`
  /// and `jsonl` only. Sums as `render` does, entry by entry in list order,
  /// so an overflow stops at the same row.
  static func renderEntries<S: Error, E: Error>(
    context: ListContext, format: ReportFormat, next: () throws(S) -> UnsafeRawPointer?,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(Failure<S, E>) -> SelectionSum {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(ReportRenderer.flushThreshold + ReportRenderer.flushThreshold / 4)
    var json = ListJSONWriter(layout: format == .jsonl ? .lines : .document, context: context)
    let csv = ListCSVWriter(context: context)
    if format == .csv { csv.begin(to: &buffer) } else { json.begin(to: &buffer) }
    let result = try appendRows(next: next, to: &buffer, flush: flush) { (entry, sum, buffer) throws(SumOverflow) in
      try sum.add(
        currency: ListEntryLayout.currency(entry), amount: ListEntryLayout.amount(entry),
        fee: ListEntryLayout.fee(entry))
      if format == .csv {
        ListCSVWriter.appendRendered(entry, to: &buffer)
      } else {
        json.appendRendered(ListEntryLayout.row(entry), to: &buffer)
      }
    }
    if format == .csv { csv.finish(sum: result, to: &buffer) } else { json.finish(sum: result, to: &buffer) }
    do throws(E) {
      try flush(&buffer)
    } catch {
      throw .output(error)
    }
    return result
  }

  /// One page of the parallel list's entries: each summed (currency, amount,
  /// fee) and then written by `write`, `finish` given the sum — as
  /// `appendPage` does for `Transaction`s, so an overflow stops at the same row.
  static func appendEntries<S: Error, E: Error>(
    next: () throws(S) -> UnsafeRawPointer?, to buffer: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void,
    write: (UnsafeRawPointer, inout [UInt8]) -> Void, finish: (SelectionSum, inout [UInt8]) -> Void
  ) throws(Failure<S, E>) {
    let result = try appendRows(next: next, to: &buffer, flush: flush) { (entry, sum, buffer) throws(SumOverflow) in
      try sum.add(
        currency: ListEntryLayout.currency(entry), amount: ListEntryLayout.amount(entry),
        fee: ListEntryLayout.fee(entry))
      write(entry, &buffer)
    }
    finish(result, &buffer)
  }

  /// The loop of every list: pulls each row from `next` and hands it to
  /// `add`, which sums it, then writes it (so an overflow stops before its
  /// row), flushing whenever the buffer is full; returns the sum.
  private static func appendRows<Row, S: Error, E: Error>(
    next: () throws(S) -> Row?, to buffer: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void,
    add: (Row, inout SelectionSumAccumulator, inout [UInt8]) throws(SumOverflow) -> Void
  ) throws(Failure<S, E>) -> SelectionSum {
    var sum = SelectionSumAccumulator()
    while true {
      let row: Row?
      do throws(S) {
        row = try next()
      } catch {
        throw .source(error)
      }
      guard let row else { break }
      do throws(SumOverflow) {
        try add(row, &sum, &buffer)
      } catch {
        throw .sumOverflow(error)
      }
      do throws(E) {
        try ReportRenderer.flushIfFull(&buffer, flush)
      } catch {
        throw .output(error)
      }
    }
    return sum.result
  }
}
