import ArgumentParser
import Foundation
import TxFold

/// The options of the worker threads and the spill files, which `group`,
/// `list` and `summary` take under the same names (each with its own help
/// and default), checked the one way.
protocol RunSettings {
  var threads: Int { get set }
  var memoryLimit: Int { get set }
  var temporaryDirectory: String? { get set }
}

extension GroupOptions: RunSettings {}
extension ListOptions: RunSettings {}
extension SummaryOptions: RunSettings {}

extension RunSettings {
  /// `--threads`: from 1 to 256; without it, the options' default (all cores).
  mutating func setThreads(_ threads: Int?) throws {
    guard let threads else { return }
    guard threads >= 1, threads <= 256 else {
      throw ValidationError("--threads must be from 1 to 256, not \(threads).")
    }
    self.threads = threads
  }

  /// `--memory-limit` (a size, `ByteCount`) and `--temp-dir`; a sort's
  /// limit (`list`, `summary`) is at least `floor`.
  mutating func setSpill(memoryLimit: String, temporaryDirectory: String?, floor: Int = 1) throws {
    let limit = try ByteCount.parse(
      memoryLimit, option: "--memory-limit", range: 1...Int.max, wanted: "a size of at least 1 byte")
    self.memoryLimit = max(limit, floor)
    if temporaryDirectory?.isEmpty == true {
      // An empty path would put the spill files in the root directory.
      throw ValidationError("--temp-dir is an empty path; name a directory.")
    }
    self.temporaryDirectory = temporaryDirectory
  }
}

/// The least `--memory-limit` that `list` and `summary` sort with: 1 MiB. Below it
/// each sorted run held a handful of records (one per record at `--memory-limit 1`),
/// every one a file, a sort and a reader in the merge, and a run took 100–200 times
/// as long for no memory worth saving: the read buffers alone take more
/// (Documentation/Decisions.md). `TXFOLD_MIN_SORT_MEMORY` (bytes) sets it lower, for a
/// test that spills a small input.
enum SortMemory {
  static let floor = 1 << 20
  static let variable = "TXFOLD_MIN_SORT_MEMORY"

  /// The floor, or the variable's value (at least 1) when it is a number.
  static var current: Int {
    ProcessInfo.processInfo.environment[variable].flatMap { Int($0) }.map { max(1, $0) } ?? floor
  }
}
