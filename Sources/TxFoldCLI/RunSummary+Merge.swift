import Foundation
import TxFold

extension RunSummary {
  /// Prints what a merge covered: how many partials, and the accounting of all their input.
  func finishMerge(stats: RunStats, partials: Int, elapsed: Duration) {
    guard !quiet else { return }
    var text = "txfold: merged \(partials) partial\(partials == 1 ? "" : "s") in "
    text += "\(String(format: "%.2f", Self.seconds(elapsed))) s: \(stats.lines) lines: \(stats.accepted) accepted, "
    text += "\(stats.rejected) rejected"
    if !stats.rejectedByReason.isEmpty {
      let reasons = stats.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key.code) \($0.value)" }
      text += " (" + reasons.joined(separator: ", ") + ")"
    }
    text += ", \(stats.duplicates) duplicates; schema \(stats.schema); "
    text += "the shards read \(Self.size(stats.bytesRead))"
    if stats.bytesDecoded != stats.bytesRead { text += " (\(Self.size(stats.bytesDecoded)) decompressed)" }
    text += "\n"
    StandardError.write(Printable.message(text))
  }
}
