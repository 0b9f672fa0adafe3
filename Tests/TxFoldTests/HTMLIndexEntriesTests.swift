import Foundation
import Testing

@testable import TxFold

/// The index of `--output-dir` (`HTMLAccountPages`' entries, `HTMLIndexEntries`):
/// held within its share of the memory limit and spilled past it through the
/// spill stack, with the same pages whatever spilled — ties in count and in
/// latest day kept in the order the accounts came, several currencies, sums
/// that overflowed, accounts without a period, no accounts at all.
@Suite("HTMLIndexEntries")
struct HTMLIndexEntriesTests {
  typealias Sums = [String: (income: ExactDecimal?, expense: ExactDecimal?)]

  struct Account {
    let id: String
    let count: Int
    let period: (first: CalendarDay, last: CalendarDay)?
    let sums: Sums
  }

  /// `count` accounts in id order: counts and last days repeating (ties in
  /// both orders), every fifth account without a period, some in two or
  /// three currencies, some sums overflowed.
  static func accounts(_ count: Int) -> [Account] {
    (0..<count).map { number in
      let id = String(format: "ACC-%05d", number)
      let last = CalendarDay(year: 2019, month: 5, day: 1 + number % 9)
      var sums: Sums = ["EUR": (ExactDecimal(wide: WideInt(number * 150), scale: 2), ExactDecimal(wide: 75, scale: 1))]
      if number % 3 == 0 { sums["USD"] = (nil, ExactDecimal(wide: WideInt(number), scale: 0)) }
      if number % 4 == 1 { sums["CHF"] = (.zero, nil) }
      return Account(
        id: id, count: 1 + number % 6,
        period: number % 5 == 4 ? nil : (CalendarDay(year: 2019, month: 4, day: 1 + number % 20), last), sums: sums)
    }
  }

  static func pages(
    _ accounts: [Account], periods: Bool = true, memoryLimit: Int = .max, temporaryDirectory: String? = nil,
    register: @escaping (String) -> Void = { _ in }
  ) throws -> HTMLAccountPages {
    var pages = HTMLAccountPages(
      options: TextReportOptions(source: "bank.jsonl"), periods: periods, memoryLimit: memoryLimit,
      temporaryDirectory: temporaryDirectory, onTemporaryDirectory: register)
    for account in accounts {
      try pages.add(
        account: account.id, fileName: HTMLAccountPages.fileName(for: account.id), count: account.count,
        period: account.period, sums: account.sums)
    }
    return pages
  }

  /// The ids of an index page's rows, in order.
  static func rows(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).components(separatedBy: "<span class=\"id\" title=\"").dropFirst()
      .map { String($0.prefix { $0 != "\"" }) }
  }

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-index-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func contents(_ url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  @Test(
    "Spilled past its budget, the index writes the same pages as held in memory, in each order's rule",
    arguments: [true, false], [1, 2_000, 40_000])
  func spilledPagesAreTheSame(periods: Bool, memoryLimit: Int) throws {
    let accounts = Self.accounts(300)
    let held = try Self.pages(accounts, periods: periods)
    #expect(held.indexSpilledRuns == 0)
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    var registered: [String] = []
    var spilled: HTMLAccountPages? = try Self.pages(
      accounts, periods: periods, memoryLimit: memoryLimit, temporaryDirectory: directory.path
    ) { registered.append($0) }
    let runs = spilled?.indexSpilledRuns ?? 0
    // A budget of an eighth of 1 byte holds one entry a run: 300 runs, merged in passes past the open limit.
    #expect(runs > (memoryLimit == 1 ? 300 : 2), "\(runs) runs")
    #expect(registered.count == 1 && registered.allSatisfy { $0.hasPrefix(directory.path + "/txfold-sort-") })
    // Every run is unlinked as it is made: the directory holds no name.
    #expect(Self.contents(directory).count == 1)
    #expect(registered.allSatisfy { Self.contents(URL(fileURLWithPath: $0)).isEmpty })
    var stats = RunStats()
    stats.accepted = 1_050
    let expected = try held.indexPages(stats: stats)
    let pages = try #require(try spilled?.indexPages(stats: stats))
    #expect(pages.map(\.name) == expected.map(\.name))
    for (page, wanted) in zip(pages, expected) { #expect(page.bytes == wanted.bytes, "\(page.name)") }
    // Each page can be written again, the same.
    #expect(try #require(try spilled?.indexPages(stats: stats)).map(\.bytes) == expected.map(\.bytes))
    // Each order's rule: by id as the accounts came; by count most first, by latest day latest first
    // and undated last; ties as the accounts came.
    let ids = accounts.map(\.id)
    let byCount = accounts.indices.sorted { lhs, rhs in
      accounts[lhs].count != accounts[rhs].count ? accounts[lhs].count > accounts[rhs].count : lhs < rhs
    }
    let byLatest = accounts.indices.sorted { lhs, rhs in
      switch (accounts[lhs].period?.last, accounts[rhs].period?.last) {
      case (let left?, let right?) where left != right: return left > right
      case (nil, _?): return false
      case (_?, nil): return true
      default: return lhs < rhs
      }
    }
    #expect(Self.rows(pages[0].bytes) == ids)
    #expect(Self.rows(pages[1].bytes) == byCount.map { ids[$0] })
    if periods { #expect(Self.rows(pages[2].bytes) == byLatest.map { ids[$0] }) }
    let text = String(decoding: pages[0].bytes, as: UTF8.self)
    #expect(text.contains("<title>Accounts · bank.jsonl · April 1, 2019 – May 9, 2019</title>"))
    #expect(text.contains("<dt>Accounts</dt><dd>300</dd>"))
    // The directory goes with the index.
    spilled = nil
    #expect(Self.contents(directory).isEmpty)
  }

  @Test("An index without accounts spills nothing and shows that there are none")
  func emptyIndex() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = try Self.pages([], memoryLimit: 1, temporaryDirectory: directory.path)
    let expected = try Self.pages([]).indexPages(stats: RunStats())
    #expect(try pages.indexPages(stats: RunStats()).map(\.bytes) == expected.map(\.bytes))
    #expect(pages.indexSpilledRuns == 0 && Self.contents(directory).isEmpty)
    #expect(String(decoding: expected[0].bytes, as: UTF8.self).contains("<p class=\"empty\">"))
  }

  @Test("A temporary directory that cannot be made fails the entry that spills, naming it")
  func spillFailure() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("missing").path
    var pages = HTMLAccountPages(
      options: TextReportOptions(source: "bank.jsonl"), memoryLimit: 1, temporaryDirectory: missing)
    try pages.add(account: "A", fileName: "a.html", count: 1, period: nil, sums: [:])
    #expect {
      try pages.add(account: "B", fileName: "b.html", count: 1, period: nil, sums: [:])
    } throws: { error in
      guard case .cannotCreate(let path, _) = error as? SpillError else { return false }
      return path == missing
    }
    let failure = AccountPageDirectory.outputError(.cannotCreate(path: missing, reason: "No such file or directory"))
    #expect(
      failure.description
        == "Write error in '\(missing)': cannot create the index's temporary storage: No such file or directory.")
  }
}
