/// Writes `--per-account --format html --output-dir DIR` for every command
/// that has it (`group`, `merge`, `list`, `summary`): each account's page
/// (`HTMLAccountPages`) into the `OutputDirectory` as the account comes, under
/// `HTMLAccountPages.fileName(for:)` (created exclusively: never an existing
/// name, never through a link), then the index pages. The directory is put
/// in place (or discarded) by its owner, with the run's other outputs.
///
/// ```swift
/// var pages = AccountPageDirectory(directory: try OutputDirectory.open(path: "pages"), options: options)
/// while let account = try merger.next(members: true) { try pages.write(account) }
/// try pages.finish(stats: merger.stats)
/// ```
package struct AccountPageDirectory {
  package let directory: OutputDirectory
  package private(set) var pages: HTMLAccountPages

  /// Pages in `options`' locale; `periods: false` for an index without a
  /// period column (`summary`'s). The index keeps to its share of
  /// `memoryLimit` and spills past it to a private directory in
  /// `temporaryDirectory`, which `onTemporaryDirectory` is told of
  /// (`HTMLAccountPages.init`).
  package init(
    directory: OutputDirectory, options: TextReportOptions, periods: Bool = true, memoryLimit: Int = .max,
    temporaryDirectory: String? = nil, onTemporaryDirectory: @escaping (String) -> Void = { _ in }
  ) {
    self.directory = directory
    pages = HTMLAccountPages(
      options: options, periods: periods, memoryLimit: memoryLimit, temporaryDirectory: temporaryDirectory,
      onTemporaryDirectory: onTemporaryDirectory)
  }

  /// Writes the page of one account of `group` or `merge`.
  package mutating func write(_ account: AccountReport) throws(OutputError) {
    let name = try directory.create(HTMLAccountPages.fileName(for: account.account), bytes: pages.page(for: account))
    do throws(SpillError) { try pages.add(account, fileName: name) } catch { throw Self.outputError(error) }
  }

  /// Writes the page of one account of `summary` (its entries in the order
  /// to show), naming `days` as its period (`AccountSummaryCursor.days`).
  package mutating func write(_ account: AccountSummary, days: DaySpan?) throws(OutputError) {
    let name = try directory.create(
      HTMLAccountPages.fileName(for: account.account), bytes: pages.page(for: account, days: days))
    do throws(SpillError) { try pages.add(account, days: days, fileName: name) } catch { throw Self.outputError(error) }
  }

  /// Writes the page of one account of `list` as `next` hands out its rows
  /// (`HTMLAccountPages.writeListPage`); `context.matched` is the account's
  /// matching transactions before paging, `context.days` their first and last day.
  package mutating func writeList<S: Error>(
    account: String, context: ListContext, next: () throws(S) -> Transaction?
  ) throws(ListRenderer.Failure<S, OutputError>) {
    let file: OutputDirectory.File
    do throws(OutputError) {
      file = try directory.createFile(HTMLAccountPages.fileName(for: account))
    } catch {
      throw .output(error)
    }
    let listed = try pages.writeListPage(account: account, context: context, next: next, flush: file.write)
    do throws(OutputError) {
      try file.finish()
    } catch {
      throw .output(error)
    }
    do throws(SpillError) {
      try pages.add(
        account: account, fileName: file.name, count: context.matched, period: listed.period, sums: listed.sums)
    } catch {
      throw .output(Self.outputError(error))
    }
  }

  /// Writes the index pages, with the run's accounting, after the last
  /// account: each streamed to its file as it is made.
  package func finish(stats: RunStats) throws(OutputError) {
    for (order, name) in pages.indexFiles.enumerated() {
      let file = try directory.createFile(name)
      // Account pages' names end in a hash (or -N after one): an index name is never taken.
      precondition(file.name == name, "index page \(name) written as \(file.name)")
      do throws(HTMLAccountPages.IndexFailure<OutputError>) {
        try pages.writeIndexPage(order, stats: stats, flush: file.write)
      } catch {
        switch error {
        case .spill(let error): throw Self.outputError(error)
        case .output(let error): throw error
        }
      }
      try file.finish()
    }
  }

  /// A failure of the index's temporary storage as the pages' failure: exit 74, as every spill's.
  static func outputError(_ error: SpillError) -> OutputError {
    switch error {
    case .cannotCreate(let path, let reason):
      OutputError(path: path, reason: "cannot create the index's temporary storage: \(reason)")
    case .writeFailed(let path, let reason), .readFailed(let path, let reason):
      OutputError(path: path, reason: reason)
    case .corrupt(let path, let detail):
      OutputError(path: path, reason: "damaged temporary storage: \(detail)")
    }
  }
}
