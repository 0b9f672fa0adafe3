import Foundation
import TxFold

/// The run summary and the progress line on standard error.
///
/// On a terminal the progress line is redrawn in place (inputs of 64 MiB or
/// more). With `--progress` and standard error not a terminal (a log under cron
/// or systemd), one plain line is written every `logInterval` instead, for any
/// input: `txfold: progress: 13.5 MiB / 54.0 MiB (25%), 120000 records, 51.3 MiB/s, ETA 6 s`,
/// by a `ProgressTicker` when no chunk comes (a stalled input), with the last counts.
///
/// `@unchecked Sendable`: the ticker's thread and a sorted per-account fold's
/// reach it; its mutable state changes only under `drawing`.
final class RunSummary: @unchecked Sendable {
  let quiet: Bool
  /// `--progress`: progress lines also when standard error is not a terminal (and with `--quiet`).
  let forced: Bool
  /// `--dry-run`: the summary counts what a real run would write, and must not say it was written.
  let dryRun: Bool
  /// Seconds between two logged progress lines: 10, or `TXFOLD_PROGRESS_INTERVAL` (a test sets it lower).
  let logInterval: Duration
  static let intervalVariable = "TXFOLD_PROGRESS_INTERVAL"
  private var lastLogged = ContinuousClock.now
  /// The latest counts the pipeline reported, for the ticker's lines; `nil` before the first chunk.
  private var latest: PipelineProgress?
  /// Logs while reading waits (`startLogging`); stopped for good by `clearProgress`.
  private var ticker: ProgressTicker?
  private var tickerStopped = false
  /// Progress is shown only for inputs at least this large — stored, or for a
  /// compressed input inflated (estimated from the ratio so far) — and only on a terminal.
  static let progressThreshold: Int64 = 64 << 20
  /// When the read being shown began: its rate and ETA are timed from there.
  private var readClock = ReadClock(started: ContinuousClock.now)
  private var lastDrawn = ContinuousClock.now
  private var drawn = false
  /// The characters the progress line last took, which erasing it on a `dumb` terminal blanks.
  private var drawnWidth = 0
  /// `progress` may come from a sorted per-account fold's own thread while
  /// the main thread clears the line: the drawing state changes under this lock.
  private let drawing = NSLock()

  init(quiet: Bool, forceProgress: Bool = false, dryRun: Bool = false) {
    self.quiet = quiet
    forced = forceProgress
    self.dryRun = dryRun
    logInterval = Self.logInterval(ProcessInfo.processInfo.environment[Self.intervalVariable])
  }

  /// `TXFOLD_PROGRESS_INTERVAL` as a duration: seconds, fractions allowed; 10 s when unset or not a number.
  static func logInterval(_ value: String?) -> Duration {
    guard let value, let seconds = Double(value), seconds >= 0, seconds < 86_400 else { return .seconds(10) }
    return .milliseconds(Int64(seconds * 1000))
  }

  /// Draws `done / total, rate, ETA` at most four times a second on a
  /// terminal; with `--progress` elsewhere, logs a line every `logInterval`.
  func progress(_ progress: PipelineProgress) {
    guard !quiet || forced else { return }
    guard Terminal.standardErrorIsTerminal else {
      if forced { _ = log(progress) }
      return
    }
    drawing.lock()
    defer { drawing.unlock() }
    let now = ContinuousClock.now
    // Every report moves the clock, drawn or not: a second read's first one starts it again.
    let seconds = readClock.seconds(progress, now: now)
    guard now - lastDrawn >= .milliseconds(250), let line = Self.progressLine(progress, seconds: seconds)
    else { return }
    lastDrawn = now
    StandardError.write("\r" + line + "   ")
    drawnWidth = max(drawnWidth, line.count + 3)
    drawn = true
  }

  /// The progress line, or `nil` when the input is too small to need one (or
  /// its size is unknown). The share and the ETA go by the stored bytes read
  /// (a gzip input's compressed position); a compressed input also shows the
  /// bytes inflated, and the rate is of those — the work done:
  /// `txfold: 13.5 MiB / 54.0 MiB (25%), 102.6 MiB inflated, 51.3 MiB/s, ETA 6 s`.
  static func progressLine(_ progress: PipelineProgress, seconds: Double) -> String? {
    guard let total = progress.storedBytesTotal, total > 0 else { return nil }
    let stored = progress.storedBytesRead
    let inflated = max(progress.decodedBytesRead, stored)
    let compressed = inflated > stored
    // What the whole input inflates to, at the ratio so far.
    let estimated = stored > 0 ? Double(total) * Double(inflated) / Double(stored) : Double(total)
    guard Double(total) >= Double(progressThreshold) || estimated >= Double(progressThreshold) else { return nil }
    let rate = seconds > 0 ? Double(inflated) / seconds : 0
    let storedRate = seconds > 0 ? Double(stored) / seconds : 0
    let remaining = storedRate > 0 ? Double(total - stored) / storedRate : 0
    let percent = Double(stored) * 100 / Double(total)
    var line = "txfold: \(progress.secondRead ? "second read: " : "")\(size(stored)) / \(size(total)) "
    line += "(\(String(format: "%.0f", percent))%), "
    if compressed { line += "\(size(inflated)) inflated, " }
    line += "\(size(Int64(rate)))/s, ETA \(String(format: "%.0f", remaining)) s"
    return line
  }

  /// With `--progress` off a terminal, starts the ticker that logs the line
  /// on time while reading waits; an interval of 0 (a test's) logs at every
  /// chunk and starts none.
  func startLogging() {
    guard forced, !Terminal.standardErrorIsTerminal, logInterval > .zero else { return }
    drawing.lock()
    defer { drawing.unlock() }
    guard ticker == nil, !tickerStopped else { return }
    ticker = ProgressTicker(first: logInterval) { [self] in log(nil) }
  }

  /// Writes a plain progress line when `logInterval` has passed since the last
  /// one (or the start): of `progress`, or from the ticker (`nil`) of the
  /// latest counts. Returns the time until the next line is due.
  private func log(_ progress: PipelineProgress?) -> Duration {
    drawing.lock()
    defer { drawing.unlock() }
    if let progress { latest = progress }
    let now = ContinuousClock.now
    let seconds = readClock.seconds(latest, now: now)
    guard now - lastLogged >= logInterval else { return lastLogged + logInterval - now }
    lastLogged = now
    StandardError.write(Self.logLine(latest, seconds: seconds) + "\n")
    return logInterval
  }

  /// The logged progress line: bytes read (of the total, when known), bytes
  /// inflated for a compressed input, records, rate, and the ETA when the
  /// total is known; `nil` before the first chunk (`0 B read, 0 records`).
  static func logLine(_ progress: PipelineProgress?, seconds: Double) -> String {
    let stored = progress?.storedBytesRead ?? 0
    let inflated = max(progress?.decodedBytesRead ?? 0, stored)
    let rate = seconds > 0 ? Double(inflated) / seconds : 0
    var line = "txfold: progress\(progress?.secondRead == true ? " (second read)" : ""): \(size(stored))"
    var eta: String?
    if let total = progress?.storedBytesTotal, total > 0 {
      let percent = Double(stored) * 100 / Double(total)
      line += " / \(size(total)) (\(String(format: "%.0f", percent))%)"
      let storedRate = seconds > 0 ? Double(stored) / seconds : 0
      eta = storedRate > 0 ? String(format: "%.0f", Double(total - stored) / storedRate) : nil
    } else {
      line += " read"
    }
    if inflated > stored { line += ", \(size(inflated)) inflated" }
    line += ", \(progress?.recordsRead ?? 0) records, \(size(Int64(rate)))/s"
    if let eta { line += ", ETA \(eta) s" }
    return line
  }

  /// Erases the progress line; reading is over, so the ticker stops (and is
  /// waited for, so no logged line comes after this).
  func clearProgress() {
    stopLogging()
    drawing.lock()
    defer { drawing.unlock() }
    guard drawn else { return }
    // A terminal that shows no escapes (TERM=dumb) would print `[K`: blanks overwrite the line there.
    StandardError.write(
      Terminal.showsEscapes() ? "\r\u{1B}[K" : "\r" + String(repeating: " ", count: drawnWidth) + "\r")
    drawn = false
  }

  /// A run that spilled is slower than its input explains; the note says
  /// which `--memory-limit` would have kept it in memory.
  func noteSpill(_ verb: String, runs: Int, memoryLimit: String) {
    guard !quiet && runs > 0 else { return }
    ExitStatus.complain("\(verb) in \(runs) runs on disk (--memory-limit \(memoryLimit))")
  }

  /// Stops the ticker for good and waits for its thread; not under `drawing`,
  /// which a tick under way needs to finish.
  private func stopLogging() {
    drawing.lock()
    let running = ticker
    ticker = nil
    tickerStopped = true
    drawing.unlock()
    running?.stop()
  }

  /// Prints the run's accounting.
  func finish(stats: RunStats, elapsed: Duration) {
    stopLogging()
    guard !quiet else { return }
    let seconds = Self.seconds(elapsed)
    var text = "txfold: \(stats.lines) lines: \(stats.accepted) accepted, \(stats.rejected) rejected"
    if !stats.rejectedByReason.isEmpty {
      let reasons = stats.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key.code) \($0.value)" }
      text += " (" + reasons.joined(separator: ", ") + ")"
    }
    text += ", \(stats.duplicates) duplicates; \(Self.schema(stats))\n"
    let rate = seconds > 0 ? Double(stats.bytesDecoded) / seconds : 0
    let records = seconds > 0 ? Double(stats.lines) / seconds : 0
    text += "txfold: read \(Self.size(stats.bytesRead))"
    if stats.bytesDecoded != stats.bytesRead { text += " (\(Self.size(stats.bytesDecoded)) decompressed)" }
    text += " in \(String(format: "%.2f", seconds)) s: \(Self.size(Int64(rate)))/s, "
    text += "\(String(format: "%.0f", records)) records/s\n"
    if let changed = stats.changedAccounts {
      let written = dryRun ? "--dry-run: none written" : "--changed-only wrote those"
      text += "txfold: \(changed) of \(stats.accounts ?? changed) accounts changed tonight (\(written))\n"
    }
    for hint in stats.hints { text += "txfold: hint: \(CommandLineWording.reword(hint))\n" }
    StandardError.write(Printable.message(text))
  }

  /// `schema backbase`, or `no schema detected` when `--schema auto` found none.
  static func schema(_ stats: RunStats) -> String {
    stats.schema.isEmpty ? "no schema detected" : "schema \(stats.schema)"
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Sizes in binary units: `812.3 MiB`.
  static func size(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
  }
}

/// When the read a progress line shows began: the run's start, then the
/// second read's (`PipelineProgress.secondRead`, which reports once as it
/// starts), whose counts start again from zero — so each read's rate and ETA
/// are of its own bytes over its own time, not over the run's.
struct ReadClock {
  private(set) var started: ContinuousClock.Instant
  private var rereading = false

  init(started: ContinuousClock.Instant) {
    self.started = started
  }

  /// Seconds from the start of the read `progress` is of, to `now`.
  mutating func seconds(_ progress: PipelineProgress?, now: ContinuousClock.Instant) -> Double {
    if progress?.secondRead == true && !rereading {
      rereading = true
      started = now
    }
    return RunSummary.seconds(now - started)
  }
}
