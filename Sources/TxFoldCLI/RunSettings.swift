import ArgumentParser
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

  /// `--memory-limit` (a size, `ByteCount`) and `--temp-dir`.
  mutating func setSpill(memoryLimit: String, temporaryDirectory: String?) throws {
    self.memoryLimit = try ByteCount.parse(
      memoryLimit, option: "--memory-limit", range: 1...Int.max, wanted: "a size of at least 1 byte")
    if temporaryDirectory?.isEmpty == true {
      // An empty path would put the spill files in the root directory.
      throw ValidationError("--temp-dir is an empty path; name a directory.")
    }
    self.temporaryDirectory = temporaryDirectory
  }
}
