/// The list's public entry points that meet a pipeline's cursor and its error:
/// rendering a `ListCursor`, the list document of one, and a per-account
/// list's writer, each throwing `PipelineError` (`.totalOverflow` for a
/// sum that no longer fits) or the caller's own error as it is.
extension ReportRenderer {
  /// Renders the rest of `list`'s page as `format`, pulling its transactions
  /// one at a time (memory stays bounded whatever the page's length) and
  /// passing the bytes to `flush` in pieces; the sum line covers exactly what
  /// is shown. Dates are taken in the zone of the list's filter.
  ///
  /// ```swift
  /// let list = try ListPipeline(options: options).run(paths: ["dump.jsonl.gz"])
  /// try ReportRenderer.render(list, format: .json) { (chunk: inout [UInt8]) in
  ///   try output.write(chunk)
  ///   chunk.removeAll(keepingCapacity: true)
  /// }
  /// ```
  ///
  /// - Returns: the sum of the transactions written.
  /// - Throws: the cursor's `PipelineError` (`.totalOverflow` when the sum no
  ///   longer fits in 128 bits), or what `flush` threw, as it is.
  /// - Complexity: O(output size); memory O(`flushThreshold`).
  @discardableResult
  public static func render(
    _ list: ListCursor, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    flush: (inout [UInt8]) throws -> Void
  ) throws -> SelectionSum {
    let context = ListContext(stats: list.stats, matched: list.matched, page: list.page, zone: list.zone)
    do throws(ListRenderer.Failure<PipelineError, any Error>) {
      return try ListRenderer.render(context: context, format: format, options: options, next: list.next, flush: flush)
    } catch {
      throw error.unwrapped
    }
  }
}

extension ListReport {
  /// The document the `json` format writes for the rest of `list`'s page:
  /// its transactions (read now), their sum, the page and the stats.
  ///
  /// - Throws: the cursor's `PipelineError`, `.totalOverflow` when the sum no
  ///   longer fits in 128 bits.
  public init(reading list: ListCursor) throws(PipelineError) {
    let transactions = try list.remainingTransactions()
    do throws(SumOverflow) {
      try self.init(
        transactions: transactions, context: ListContext(stats: list.stats, matched: list.matched, page: list.page))
    } catch {
      throw .totalOverflow(error)
    }
  }
}

extension AccountListWriter {
  /// Writes every account `nextAccount` hands out — its id and its matching
  /// transactions before paging — with the page `next` then hands out for
  /// it (an `AccountListCursor`'s methods), then the run's accounting.
  ///
  /// - Throws: what `nextAccount` or `next` threw (a cursor's
  ///   `PipelineError`), `PipelineError.totalOverflow` when a page's sum no
  ///   longer fits in 128 bits, or what `flush` threw, as it is.
  /// - Complexity: O(output size).
  public mutating func write(
    stats: RunStats, page: PageRequest, nextAccount: () throws -> (account: String, matched: Int)?,
    next: () throws -> Transaction?, flush: (inout [UInt8]) throws -> Void
  ) throws {
    do throws(ListRenderer.Failure<any Error, any Error>) {
      try write(typedStats: stats, page: page, nextAccount: nextAccount, next: next, flush: flush)
    } catch {
      if case .sumOverflow(let overflow) = error { throw PipelineError.totalOverflow(overflow) }
      throw error.unwrapped
    }
  }
}

extension ListRenderer.Failure {
  /// The error itself, as the public entry points throw it: the source's,
  /// the overflow (as `PipelineError.totalOverflow` when the source is a
  /// pipeline's), or the output's.
  var unwrapped: any Error {
    switch self {
    case .source(let error): return error
    case .sumOverflow(let error):
      return SourceFailure.self == PipelineError.self ? PipelineError.totalOverflow(error) : error
    case .output(let error): return error
    }
  }
}
