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

  /// Pages in `options`' locale; `periods: false` for an index without a period column (`summary`'s).
  package init(directory: OutputDirectory, options: TextReportOptions, periods: Bool = true) {
    self.directory = directory
    pages = HTMLAccountPages(options: options, periods: periods)
  }

  /// Writes the page of one account of `group` or `merge`.
  package mutating func write(_ account: AccountReport) throws(OutputError) {
    let name = try directory.create(HTMLAccountPages.fileName(for: account.account), bytes: pages.page(for: account))
    pages.add(account, fileName: name)
  }

  /// Writes the page of one account of `summary` (its entries in the order
  /// to show), naming `days` as its period (`AccountSummaryCursor.days`).
  package mutating func write(_ account: AccountSummary, days: DaySpan?) throws(OutputError) {
    let name = try directory.create(
      HTMLAccountPages.fileName(for: account.account), bytes: pages.page(for: account, days: days))
    pages.add(account, days: days, fileName: name)
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
    pages.add(account: account, fileName: file.name, count: context.matched, period: listed.period, sums: listed.sums)
  }

  /// Writes the index pages, with the run's accounting, after the last
  /// account: each streamed to its file as it is made.
  package func finish(stats: RunStats) throws(OutputError) {
    for (order, name) in pages.indexFiles.enumerated() {
      let file = try directory.createFile(name)
      // Account pages' names end in a hash (or -N after one): an index name is never taken.
      precondition(file.name == name, "index page \(name) written as \(file.name)")
      try pages.writeIndexPage(order, stats: stats, flush: file.write)
      try file.finish()
    }
  }
}
