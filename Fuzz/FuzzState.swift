// Target 13 (`=`): a nightly state file, written from a dump and then damaged. Compiled into the
// library's module (see build.sh).
import Foundation

/// The payload's first line holds damage knobs; the rest is a dump. The dump's first night is
/// folded into a state; the second night folds the same dump into it and must print what
/// `dedupe` over the dump twice prints. Then one byte of the state is flipped, or the state is
/// cut short: opening it, or at the latest the night that reads it, must refuse it (the header
/// and trailer are checked when it is opened, its records when the run starts) — a CRC-32
/// catches every single-byte change and every cut — never trap, and never read it as another state.
@Sendable func fuzzState(_ payload: [UInt8]) {
  let directory = NSTemporaryDirectory() + "txfold-fuzz-state-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let dump = directory + "/night.jsonl"
  let first = directory + "/first.state"
  guard FileManager.default.createFile(atPath: dump, contents: Data(payload)) else { return }
  var options = GroupOptions()
  options.threads = 1 + fuzzKnob(payload, 2)
  options.memoryLimit = fuzzKnob(payload, 3) == 0 ? 1 : 64 << 20
  options.read.accounts = fuzzKnob(payload, 5) == 0 ? .field : .none
  options.read.limits.maxRecordBytes = 1 << 16
  do {
    var night = options
    night.read.nightly = try NightlyState(previous: nil, job: .group(options))
    let report = try GroupPipeline(options: night).run(paths: [dump])
    try night.read.nightly?.write(to: first, stats: report.stats)
  } catch {
    return  // A dump a run refuses (nothing accepted, an overflow, …) writes no state.
  }
  // The second night: the same dump again, against dedupe over both.
  do {
    var night = options
    night.read.nightly = try NightlyState(previous: first, job: .group(options))
    let report = try GroupPipeline(options: night).run(paths: [dump])
    var full = options
    full.dedupe = true
    let expected = try GroupPipeline(options: full).run(paths: [dump, dump])
    if report != expected || report.stats != expected.stats {
      fuzzFailure("the second night differs from --dedupe over both nights")
    }
  } catch {
    fuzzFailure("the second night failed where --dedupe did not: \(error)")
  }
  // Damage: one byte flipped somewhere, or the file cut short.
  guard var bytes = fuzzReadFile(first), !bytes.isEmpty else {
    fuzzFailure("no state written")
  }
  let spot = fuzzKnob(Array(payload.reversed()), bytes.count)
  if fuzzKnob(payload, 4) == 0 {
    bytes.removeLast(bytes.count - spot)
  } else {
    bytes[spot] ^= UInt8(1 + fuzzKnob(payload, 255))
  }
  let damaged = directory + "/damaged.state"
  guard FileManager.default.createFile(atPath: damaged, contents: Data(bytes)) else { return }
  let opened: NightlyState
  do {
    opened = try NightlyState(previous: damaged, job: .group(options))
  } catch {
    return  // Refused when opened, naming the damage.
  }
  do {
    var night = options
    night.read.nightly = opened
    _ = try GroupPipeline(options: night).run(paths: [dump])
    fuzzFailure("a damaged state (byte \(spot) of \(bytes.count)) was read")
  } catch .state {
    // Refused by the run before anything is written, naming the damage: what must happen.
  } catch {
    fuzzFailure("a damaged state (byte \(spot) of \(bytes.count)) failed the night with another error: \(error)")
  }
}
