import ArgumentParser
import Foundation
import TxFold

/// Which transactions `list` and `summary` keep: the seeds' filters, the
/// pinned subset, dedupe and the zone of days.
struct SelectionArguments: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Keep this category (repeatable); 'all' keeps every one, '(none)' those without one.",
      valueName: "category"))
  var category: [String] = []

  @Option(help: ArgumentHelp("Keep this state (repeatable, any case), e.g. PENDING.", valueName: "state"))
  var state: [String] = []

  @Option(help: ArgumentHelp("Keep transactions from this day on (YYYY-MM-DD, inclusive).", valueName: "date"))
  var since: String?

  @Option(help: ArgumentHelp("Keep transactions up to this day (YYYY-MM-DD, inclusive).", valueName: "date"))
  var until: String?

  @Option(
    help: ArgumentHelp("Keep only the ids listed in this file, one per line (the pinned subset).", valueName: "file"))
  var onlyIds: String?

  @Option(help: ArgumentHelp("Leave out the ids listed in this file, one per line.", valueName: "file"))
  var excludeIds: String?

  @Flag(help: "Keep one transaction per id, the latest (needs memory per distinct id).")
  var dedupe = false

  @Option(help: "Take days in this IANA time zone (e.g. Europe/Amsterdam or UTC).")
  var timezone: String?

  /// The validated values; the id files are read later, by `filter(zone:)`.
  struct Selection {
    var since: CalendarDay?
    var until: CalendarDay?
    var zone = ZoneResolver.asWritten
  }

  /// Checks the options, or throws a usage error naming the option.
  func selection() throws -> Selection {
    var selection = Selection()
    selection.since = try since.map { try Self.day($0, option: "--since") }
    selection.until = try until.map { try Self.day($0, option: "--until") }
    if let since = selection.since, let until = selection.until, until < since {
      throw ValidationError("--since (\(since)) must not be after --until (\(until)).")
    }
    if let timezone {
      let zone: ZoneResolver
      do throws(ZoneError) {
        zone = try ZoneResolver.named(timezone)
      } catch {
        throw ValidationError("--timezone: \(error)")
      }
      selection.zone = zone
    }
    for value in state where value.isEmpty { throw ValidationError("--state must not be empty.") }
    return selection
  }

  /// The id files given (`--only-ids`, `--exclude-ids`): inputs too, which no output may replace.
  var idFiles: [String] { [onlyIds, excludeIds].compactMap { $0 } }

  /// The library's filter, reading the id files.
  ///
  /// - Throws: `InputError` when an id file cannot be opened or read.
  func filter(_ selection: Selection) throws(InputError) -> TransactionFilter {
    TransactionFilter(
      categories: category.isEmpty ? nil : category, states: state.isEmpty ? nil : state, since: selection.since,
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

  static func day(_ text: String, option: String) throws -> CalendarDay {
    guard let stamp = TimestampParser.parse(text), stamp.style == .dateOnly else {
      throw ValidationError("\(option) must be a date written YYYY-MM-DD, not '\(text)'.")
    }
    return stamp.writtenDay
  }

  /// The ids of a file (gzip too): one per line, surrounding spaces, tabs and
  /// CR trimmed, blank lines skipped.
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
    return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
      let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
      guard let first = line.firstIndex(where: { !blank.contains($0) }),
        let last = line.lastIndex(where: { !blank.contains($0) })
      else { return nil }
      return String(decoding: line[first...last], as: UTF8.self)
    }
  }
}
