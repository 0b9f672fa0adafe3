import Foundation
import TxFold

/// `--stats FILE`: the run's accounting as one JSON document for operators
/// and monitoring (Documentation/Formats.md, "The stats document"). Its keys
/// are always present, in this order, whatever the run:
///
/// ```
/// {"version":1,"command":"group","lines":7,"accepted":6,"rejected":1,
///  "rejectedByReason":{"invalid-json":1,"not-an-object":0,…},"duplicates":0,"schema":"backbase",
///  "bytesRead":1562,"bytesInflated":1562,"elapsedSeconds":0.004125,
///  "bytesPerSecond":378666,"recordsPerSecond":1697,"partials":null,"accounts":null}
/// ```
///
/// (on one line). `rejectedByReason` lists every reason code, zero included,
/// so a dashboard never misses a key; `schema` is `null` when `--schema auto`
/// detected none; the rates are `null` when no time could be measured and for
/// `merge`, whose counts and bytes are its shards'; `partials` is the number
/// of partials a `merge` read, `accounts` the accounts a per-account run wrote.
enum RunStatsDocument {
  /// The document's `version`: raised whenever a key is added or changes meaning.
  static let version = 1

  /// The document, ending in a newline.
  static func render(command: String, stats: RunStats, elapsed: Duration, partials: Int? = nil) -> [UInt8] {
    let seconds = RunSummary.seconds(elapsed)
    let rated = partials == nil && seconds > 0
    var text = "{\"version\":\(version),\"command\":\(quoted(command))"
    text += ",\"lines\":\(stats.lines),\"accepted\":\(stats.accepted),\"rejected\":\(stats.rejected)"
    text += ",\"rejectedByReason\":{"
    text += RejectReason.allCases.map { "\(quoted($0.code)):\(stats.rejectedByReason[$0] ?? 0)" }
      .joined(separator: ",")
    text += "},\"duplicates\":\(stats.duplicates)"
    text += ",\"schema\":\(stats.schema.isEmpty ? "null" : quoted(stats.schema))"
    text += ",\"bytesRead\":\(stats.bytesRead),\"bytesInflated\":\(stats.bytesDecoded)"
    text += ",\"elapsedSeconds\":\(String(format: "%.6f", seconds))"
    text += ",\"bytesPerSecond\":\(rated ? String(Int64(Double(stats.bytesDecoded) / seconds)) : "null")"
    text += ",\"recordsPerSecond\":\(rated ? String(Int64(Double(stats.lines) / seconds)) : "null")"
    text += ",\"partials\":\(partials.map(String.init) ?? "null")"
    text += ",\"accounts\":\(stats.accounts.map(String.init) ?? "null")}\n"
    return Array(text.utf8)
  }

  /// A JSON string: quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
