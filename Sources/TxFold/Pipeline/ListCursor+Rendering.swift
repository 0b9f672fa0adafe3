/// The list's public entry points that meet a pipeline's cursor and its error:
/// rendering a `ListCursor`, the list document of one, and rendering a
/// per-account list's cursor, each throwing `PipelineError` (`.totalOverflow` for a
/// sum that no longer fits) or the caller's own error as it is.
extension ReportRenderer {
  /// Renders the rest of `list`'s page as `format`, pulling its transactions
  /// one at a time (memory stays bounded whatever the page's length) and
  /// passing the bytes to `flush` in pieces; the sum line covers exactly what
  /// is shown. Dates are taken in the run's zone (`ReadOptions.zone`).
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
    let context = ListContext(
      stats: list.stats, matched: list.matched, page: list.page, zone: list.zone, days: list.days)
    do throws(ListRenderer.Failure<PipelineError, any Error>) {
      return try ListRenderer.render(context: context, format: format, options: options, next: list.next, flush: flush)
    } catch {
      throw error.found(after: list.inputs).unwrapped
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
      throw PipelineError.totalOverflow(error).found(after: list.inputs)
    }
  }
}

extension ReportRenderer {
  /// Renders a per-account list as `format` (every format is written per
  /// account, html as one page): every account the cursor has
  /// not handed out yet — its id and its matching transactions before paging
  /// — with its page, then the run's accounting, passing the bytes to `flush`
  /// in pieces (Formats, "Per-account reports"). `options` words the text and
  /// html pages; dates are taken in `zone`.
  ///
  /// ```swift
  /// let cursor = try ListPipeline(options: options).runPerAccount(paths: paths)
  /// try ReportRenderer.render(cursor, format: .jsonl) { (chunk: inout [UInt8]) in
  ///   try output.write(chunk)
  ///   chunk.removeAll(keepingCapacity: true)
  /// }
  /// ```
  ///
  /// - Throws: the cursor's `PipelineError` (`.totalOverflow` when a page's
  ///   sum no longer fits in 128 bits), or what `flush` threw, as it is.
  /// - Complexity: O(output size); memory O(`flushThreshold`) whatever the number of accounts.
  public static func render(
    _ accounts: AccountListCursor, format: ReportFormat, options: TextReportOptions = TextReportOptions(),
    zone: ZoneResolver = .asWritten, flush: (inout [UInt8]) throws -> Void
  ) throws {
    // Every format is written per account (`AccountListWriter.formats`).
    guard var writer = AccountListWriter(format: format, options: options, zone: zone) else {
      throw PipelineError.invalidOptions("A per-account list is not written as \(format.rawValue).")
    }
    do throws(ListRenderer.Failure<PipelineError, any Error>) {
      try writer.write(
        stats: { accounts.stats }, page: accounts.page, nextAccount: accounts.nextAccount, next: accounts.next,
        flush: flush)
    } catch {
      throw error.found(after: accounts.inputs).unwrapped
    }
  }
}

extension ListRenderer.Failure {
  /// This failure, an overflowing sum named by the inputs it was summed
  /// from once they were read (`nil`: from values, not read).
  package func found(after inputs: [String]?) -> Self {
    guard case .sumOverflow(let overflow) = self, let inputs else { return self }
    return .sumOverflow(overflow.found(in: OverflowSource(after: inputs)))
  }

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
