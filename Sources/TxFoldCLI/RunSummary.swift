import Foundation
import TxFold

/// The run summary and the progress line on standard error.
final class RunSummary {
  let quiet: Bool
  /// Progress is shown only for inputs at least this large, and only on a terminal.
  static let progressThreshold: Int64 = 64 << 20
  private let started = ContinuousClock.now
  private var lastDrawn = ContinuousClock.now
  private var drawn = false

  init(quiet: Bool) {
    self.quiet = quiet
  }

  /// Draws `done / total, rate, ETA` at most four times a second.
  func progress(_ progress: PipelineProgress) {
    guard !quiet, Terminal.standardErrorIsTerminal, let total = progress.storedBytesTotal,
      total >= Self.progressThreshold
    else { return }
    let now = ContinuousClock.now
    guard now - lastDrawn >= .milliseconds(250) else { return }
    lastDrawn = now
    let seconds = Self.seconds(now - started)
    let rate = seconds > 0 ? Double(progress.storedBytesRead) / seconds : 0
    let remaining = rate > 0 ? Double(total - progress.storedBytesRead) / rate : 0
    let percent = Double(progress.storedBytesRead) * 100 / Double(max(total, 1))
    let line =
      "\rtxfold: \(Self.size(progress.storedBytesRead)) / \(Self.size(total)) (\(String(format: "%.0f", percent))%), "
      + "\(Self.size(Int64(rate)))/s, ETA \(String(format: "%.0f", remaining)) s   "
    StandardError.write(line)
    drawn = true
  }

  /// Erases the progress line.
  func clearProgress() {
    guard drawn else { return }
    StandardError.write("\r\u{1B}[K")
    drawn = false
  }

  /// Prints the run's accounting.
  func finish(stats: RunStats, elapsed: Duration) {
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
    for hint in stats.hints { text += "txfold: hint: \(CommandLineWording.reword(hint))\n" }
    StandardError.write(text)
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
