import Foundation
import TxFold

/// What the `--stats` document says of the run itself, whatever its counts:
/// the command line, the inputs, when it started, and why it failed.
///
/// `RunOutputs` makes it when the outputs are opened (the first moment after
/// option parsing that a document could be written); `ExitStatus` notes each
/// failure's message in it as it prints it.
final class RunRecord: Sendable {
  /// The record of the run in progress; set once, on the main thread, before any worker starts.
  nonisolated(unsafe) static var current: RunRecord?

  let command: String
  let arguments: [String]
  /// The inputs as named on the command line (`-` for standard input).
  let inputs: [String]
  /// `--changed-only`: the document has `changedAccounts`, also when the run fails (then `null`).
  let changedOnly: Bool
  let startedAt: Date
  /// The first failure's message, as printed on standard error.
  var failure: String? { firstFailure.withLock { $0 } }
  private let firstFailure = LockedValue<String?>(nil)
  /// Whether `--state-in` was refused (another setting, damage, found before
  /// reading or by the second pass): tonight's rejects do not explain that
  /// failure, so `RunOutputs.fail` writes no rejects file.
  var refusedState: Bool { stateWasRefused.withLock { $0 } }
  private let stateWasRefused = LockedValue(false)

  init(
    command: String, inputs: [String], changedOnly: Bool = false, arguments: [String] = CommandLine.arguments,
    startedAt: Date = Date()
  ) {
    self.command = command
    self.inputs = inputs
    self.changedOnly = changedOnly
    self.arguments = arguments
    self.startedAt = startedAt
  }

  /// Notes why the run fails (the first message is the cause; later ones follow from it).
  static func noteFailure(_ message: String) {
    current?.firstFailure.withLock { if $0 == nil { $0 = message } }
  }

  /// Notes that the run fails because its `--state-in` was refused.
  static func noteRefusedState() {
    current?.stateWasRefused.withLock { $0 = true }
  }

  /// `"inputs":[…]`: each input's path, size in bytes and fingerprint, as far
  /// as they can be known without reading it (`null` for standard input, a
  /// FIFO, or a file that does not exist). The fingerprint is the file's
  /// identity and last change, `device:inode:size:mtime-nanoseconds`: what a
  /// nightly job compares to tell whether tonight's export is last night's.
  func inputsJSON() -> String {
    let entries = inputs.map { path -> String in
      let status = path == "-" ? nil : SystemCalls.status(ofPath: path)
      guard let status, status.isRegularFile else {
        return "{\"path\":\(RunStatsDocument.quoted(path)),\"bytes\":null,\"fingerprint\":null}"
      }
      let fingerprint = "\(status.device):\(status.inode):\(status.size):\(status.modifiedNanoseconds)"
      return "{\"path\":\(RunStatsDocument.quoted(path)),\"bytes\":\(status.size),\"fingerprint\":\"\(fingerprint)\"}"
    }
    return "[" + entries.joined(separator: ",") + "]"
  }

  /// A moment as `2026-11-27T13:05:09.123Z`.
  static func utcText(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
