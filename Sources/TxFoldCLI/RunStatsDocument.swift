import Foundation
import TxFold

/// `--stats FILE`: the run's accounting as one JSON document for operators
/// and monitoring (Documentation/Formats.md, "The stats document"), written
/// on every exit past option parsing: success, a data error, an input or
/// output that fails, an interrupt. Its keys are always present, in this
/// order, whatever the run:
///
/// ```
/// {"statsVersion":2,"version":"0.1.0","command":"group","argv":["txfold","group","d.jsonl"],
///  "inputs":[{"path":"d.jsonl","bytes":1562,"fingerprint":"2049:131:1562:1764248709000000000"}],
///  "startedAt":"2026-11-27T13:05:09.120Z","endedAt":"2026-11-27T13:05:09.124Z",
///  "exitStatus":0,"error":null,
///  "lines":7,"accepted":6,"rejected":1,
///  "rejectedByReason":{"invalid-json":1,"not-an-object":0,…},"duplicates":0,"schema":"backbase",
///  "bytesRead":1562,"bytesInflated":1562,"elapsedSeconds":0.004125,
///  "bytesPerSecond":378666,"recordsPerSecond":1697,"partials":null,"accounts":null}
/// ```
///
/// (on one line). `rejectedByReason` lists every reason code, zero included,
/// so a dashboard never misses a key; `schema` is `null` when `--schema auto`
/// detected none; the rates are `null` when no time could be measured and for
/// `merge`, whose counts and bytes are its shards'; `partials` is the number
/// of partials a `merge` read, `accounts` the accounts a per-account run wrote
/// (with `--changed-only`, every account of the run). `changedAccounts`, the
/// accounts a `--changed-only` run wrote, is the one key that comes only
/// with its flag, last.
/// A run that failed has no complete counts: they are `null`, except
/// `rejected` and `rejectedByReason`, which count the rejections reported
/// before it stopped.
enum RunStatsDocument {
  /// The document's `statsVersion`: raised whenever a key is added or changes meaning.
  static let version = 2

  /// The document of a run that ends with `exitStatus`, ending in a newline.
  /// `stats` are the run's counts, `nil` when it failed before it had them
  /// (then `rejectionsSoFar` are the rejections it reported).
  static func render(
    command: String, stats: RunStats?, elapsed: Duration, partials: Int? = nil, exitStatus: Int32 = 0,
    rejectionsSoFar: [RejectReason: Int] = [:]
  ) -> [UInt8] {
    let record = RunRecord.current
    let seconds = RunSummary.seconds(elapsed)
    let rated = partials == nil && seconds > 0
    var text = "{\"statsVersion\":\(version),\"version\":\(quoted(TxFoldCommand.versionNumber))"
    text += ",\"command\":\(quoted(command))"
    text += ",\"argv\":[" + (record?.arguments ?? []).map(quoted).joined(separator: ",") + "]"
    text += ",\"inputs\":\(record?.inputsJSON() ?? "[]")"
    text += ",\"startedAt\":\(record.map { quoted(RunRecord.utcText($0.startedAt)) } ?? "null")"
    text += ",\"endedAt\":\(quoted(RunRecord.utcText(Date())))"
    text += ",\"exitStatus\":\(exitStatus),\"error\":\(record?.failure.map(quoted) ?? "null")"
    func count(_ value: (RunStats) -> Int) -> String { stats.map { String(value($0)) } ?? "null" }
    let rejections = stats?.rejectedByReason ?? rejectionsSoFar
    text += ",\"lines\":\(count(\.lines)),\"accepted\":\(count(\.accepted))"
    text += ",\"rejected\":\(stats?.rejected ?? rejections.values.reduce(0, +))"
    text += ",\"rejectedByReason\":{"
    text += RejectReason.allCases.map { "\(quoted($0.code)):\(rejections[$0] ?? 0)" }.joined(separator: ",")
    text += "},\"duplicates\":\(count(\.duplicates))"
    text += ",\"schema\":\(stats.map { $0.schema.isEmpty ? "null" : quoted($0.schema) } ?? "null")"
    text += ",\"bytesRead\":\(stats.map { String($0.bytesRead) } ?? "null")"
    text += ",\"bytesInflated\":\(stats.map { String($0.bytesDecoded) } ?? "null")"
    text += ",\"elapsedSeconds\":\(String(format: "%.6f", seconds))"
    let bytesPerSecond = stats.flatMap { rated ? String(Int64(Double($0.bytesDecoded) / seconds)) : nil }
    let recordsPerSecond = stats.flatMap { rated ? String(Int64(Double($0.lines) / seconds)) : nil }
    text += ",\"bytesPerSecond\":\(bytesPerSecond ?? "null"),\"recordsPerSecond\":\(recordsPerSecond ?? "null")"
    text += ",\"partials\":\(partials.map(String.init) ?? "null")"
    text += ",\"accounts\":\(stats?.accounts.map(String.init) ?? "null")"
    // Only with --changed-only (`null` when the run failed), so that every other run's document stays as it was.
    if record?.changedOnly == true || stats?.changedAccounts != nil {
      text += ",\"changedAccounts\":\(stats?.changedAccounts.map(String.init) ?? "null")"
    }
    text += "}\n"
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
