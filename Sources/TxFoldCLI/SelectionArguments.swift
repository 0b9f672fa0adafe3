import ArgumentParser
import Foundation
import TxFold

/// Which transactions `group`, `list` and `summary` keep: the seeds' filters
/// and the pinned subset — one implementation for the three commands.
struct FilterArguments: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Keep this category (repeatable); 'all' keeps every one, '(none)' those without one.",
      valueName: "category"))
  var category: [String] = []

  @Option(
    help: ArgumentHelp("Keep this state (repeatable, any case), e.g. PENDING.", valueName: "state"),
    completion: .list(["PENDING", "COMPLETED"]))
  var state: [String] = []

  @Option(
    help: ArgumentHelp(
      """
      Keep transactions in this currency (repeatable, any case), e.g. EUR; a filter, unlike --currency, which \
      names the currency of records that have none.
      """, valueName: "code"),
    completion: .list(["EUR", "USD", "GBP", "CHF"]))
  var onlyCurrency: [String] = []

  @Option(
    help: ArgumentHelp(
      "Keep transactions from this day on (inclusive): YYYY-MM-DD, or the first day of YYYY-Www (an ISO week), YYYY-MM, YYYY-Qn or YYYY.",
      valueName: "date"))
  var since: String?

  @Option(
    help: ArgumentHelp(
      "Keep transactions up to this day (inclusive): YYYY-MM-DD, or the last day of YYYY-Www (an ISO week), YYYY-MM, YYYY-Qn or YYYY.",
      valueName: "date"))
  var until: String?

  @Option(
    help: ArgumentHelp(
      "Keep the transactions of this period: a day, ISO week, month, quarter or year (2024-05-17, 2024-W20, 2024-05, 2024-Q2, 2024).",
      valueName: "period"))
  var period: String?

  @Option(
    help: ArgumentHelp("Keep only the ids listed in this file, one per line (the pinned subset).", valueName: "file"),
    completion: .file())
  var onlyIds: String?

  @Option(
    help: ArgumentHelp("Leave out the ids listed in this file, one per line.", valueName: "file"), completion: .file())
  var excludeIds: String?

  /// The validated values; the id files are read later, by `filter(zone:)`.
  struct Selection {
    var since: CalendarDay?
    var until: CalendarDay?
    var zone = ZoneResolver.asWritten
  }

  /// Checks the options, or throws a usage error naming the option.
  func selection() throws -> Selection {
    var selection = Selection()
    if let period {
      guard since == nil, until == nil else {
        throw ValidationError("--period sets both ends: give it alone, or --since and --until.")
      }
      let days = try Self.period(period, option: "--period")
      selection.since = days.lowerBound
      selection.until = days.upperBound
    }
    if let since { selection.since = try Self.period(since, option: "--since").lowerBound }
    if let until { selection.until = try Self.period(until, option: "--until").upperBound }
    if let since = selection.since, let until = selection.until, until < since {
      throw ValidationError("--since (\(since)) must not be after --until (\(until)).")
    }
    for value in state where value.isEmpty { throw ValidationError("--state must not be empty.") }
    for value in onlyCurrency where value.isEmpty { throw ValidationError("--only-currency must not be empty.") }
    return selection
  }

  /// The id files given (`--only-ids`, `--exclude-ids`): inputs too, which no output may replace.
  var idFiles: [String] { [onlyIds, excludeIds].compactMap { $0 } }

  /// Whether any selection flag is given.
  var selects: Bool {
    !category.isEmpty || !state.isEmpty || !onlyCurrency.isEmpty || since != nil || until != nil || period != nil
      || onlyIds != nil || excludeIds != nil
  }

  /// The library's filter, reading the id files.
  ///
  /// - Throws: `InputError` when an id file cannot be opened or read.
  func filter(_ selection: Selection) throws(InputError) -> TransactionFilter {
    TransactionFilter(
      categories: category.isEmpty ? nil : category, states: state.isEmpty ? nil : state,
      currencies: onlyCurrency.isEmpty ? nil : onlyCurrency, since: selection.since,
      until: selection.until, onlyIDs: try onlyIds.map { path throws(InputError) in try Self.ids(path) },
      excludedIDs: try excludeIds.map { path throws(InputError) in try Self.ids(path) } ?? [], zone: selection.zone)
  }

  /// `filter(_:)` for a command's `run()`: an id file that cannot be read exits
  /// with the input error's status (66 or 74), not as a usage error.
  func resolvedFilter(_ selection: Selection) throws -> TransactionFilter {
    do throws(InputError) {
      return try filter(selection)
    } catch {
      throw ExitStatus.fail(PipelineError.input(error))
    }
  }

  /// The days of a period written `YYYY-MM-DD`, `YYYY-Www` (an ISO 8601 week, as `summary --by
  /// week` prints its keys), `YYYY-MM`, `YYYY-Qn` or `YYYY` (years 0001–9999), first and last
  /// included; a usage error naming `option` otherwise.
  static func period(_ text: String, option: String) throws -> ClosedRange<CalendarDay> {
    let wrong = ValidationError(
      "\(option) must be a day, week, month, quarter or year written YYYY-MM-DD, YYYY-Www, YYYY-MM, YYYY-Qn or "
        + "YYYY, not '\(text)'.")
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count, range.allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
      return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 48) }
    }
    guard bytes.count >= 4, let year = number(0..<4), year >= 1 else { throw wrong }
    let firstMonth: Int
    let months: Int
    switch bytes.count {
    case 8 where bytes[4] == UInt8(ascii: "-") && (bytes[5] == UInt8(ascii: "W") || bytes[5] == UInt8(ascii: "w")):
      guard let week = number(6..<8), let days = isoWeek(week, of: year) else { throw wrong }
      return days
    case 4:
      (firstMonth, months) = (1, 12)
    case 7 where bytes[4] == UInt8(ascii: "-") && (bytes[5] == UInt8(ascii: "Q") || bytes[5] == UInt8(ascii: "q")):
      guard let quarter = number(6..<7), (1...4).contains(quarter) else { throw wrong }
      (firstMonth, months) = (3 * quarter - 2, 3)
    case 7 where bytes[4] == UInt8(ascii: "-"):
      guard let month = number(5..<7), (1...12).contains(month) else { throw wrong }
      (firstMonth, months) = (month, 1)
    default:
      guard let stamp = TimestampParser.parse(text), stamp.style == .dateOnly else { throw wrong }
      return stamp.writtenDay...stamp.writtenDay
    }
    // The period ends the day before the next one starts (month 13 is January of the next year).
    let nextMonth = firstMonth + months
    let next = CalendarDay(year: year + (nextMonth - 1) / 12, month: (nextMonth - 1) % 12 + 1, day: 1)
    return CalendarDay(year: year, month: firstMonth, day: 1)...CalendarDay(daysSinceEpoch: next.daysSinceEpoch - 1)
  }

  /// ISO 8601 week `week` of `year`, Monday to Sunday: week 1 holds the year's first Thursday (and
  /// so its January 4th), and a year has a week 53 only when that week's Thursday is in it. `nil`
  /// for a week the year does not have or one reaching outside 0001–9999.
  static func isoWeek(_ week: Int, of year: Int) -> ClosedRange<CalendarDay>? {
    guard (1...53).contains(week) else { return nil }
    let january4 = Int(CalendarDay(year: year, month: 1, day: 4).daysSinceEpoch)
    // 1970-01-01 was a Thursday: weekday 0 is Monday … 6 is Sunday.
    let weekday = ((january4 + 3) % 7 + 7) % 7
    let monday = january4 - weekday + 7 * (week - 1)
    let first = CalendarDay(daysSinceEpoch: Int32(monday))
    let last = CalendarDay(daysSinceEpoch: Int32(monday + 6))
    guard CalendarDay(daysSinceEpoch: Int32(monday + 3)).components.year == year, first.isInSupportedRange,
      last.isInSupportedRange
    else { return nil }
    return first...last
  }

  /// The ids of a file (gzip too): one per line, surrounding spaces, tabs and
  /// CR trimmed, blank lines skipped, a leading UTF-8 byte-order mark skipped.
  static func ids(_ path: String) throws(InputError) -> [String] {
    let source = try InputOpener.open(path: path)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { buffer.deallocate() }
    var bytes: [UInt8] = []
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    // Editors on Windows start a text file with a byte-order mark; left in, it would be
    // part of the first id, which then silently matches nothing. (After gzip too: read decompressed.)
    let bom = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2]
    if bytes.starts(with: bom) { bytes.removeFirst(bom.count) }
    return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
      let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
      guard let first = line.firstIndex(where: { !blank.contains($0) }),
        let last = line.lastIndex(where: { !blank.contains($0) })
      else { return nil }
      return String(decoding: line[first...last], as: UTF8.self)
    }
  }
}

/// Which transactions `list` and `summary` keep: the filters `group` shares,
/// then dedupe and the zone of days.
struct SelectionArguments: ParsableArguments {
  @OptionGroup
  var filters: FilterArguments

  @Flag(
    help:
      "Keep each transaction once: of the records that share an id (with --per-account, an account and an id), the one with the latest creationTime, on a tie the later in the input. Reads each input twice; standard input and pipes are copied to --temp-dir for that."
  )
  var dedupe = false

  @Option(help: "Take days in this IANA time zone (e.g. Europe/Amsterdam or UTC).")
  var timezone: String?

  /// The validated values, the zone included; the id files are read later.
  func selection() throws -> FilterArguments.Selection {
    var selection = try filters.selection()
    if let timezone {
      do throws(ZoneError) {
        selection.zone = try ZoneResolver.named(timezone)
      } catch {
        throw ValidationError("--timezone: \(error)")
      }
    }
    return selection
  }

  /// The id files given (`--only-ids`, `--exclude-ids`): inputs too, which no output may replace.
  var idFiles: [String] { filters.idFiles }

  /// The library's filter, reading the id files (see `FilterArguments.resolvedFilter`).
  func resolvedFilter(_ selection: FilterArguments.Selection) throws -> TransactionFilter {
    try filters.resolvedFilter(selection)
  }
}
