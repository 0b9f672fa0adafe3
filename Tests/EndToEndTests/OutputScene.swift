import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scratch directory with what the output-safety tests run on: a dump with
/// one malformed line (`input.jsonl`), its partial state (`input.partial`) and
/// an id file (`ids.txt`).
struct OutputScene {
  let directory: URL
  var input: String { path("input.jsonl") }
  var partial: String { path("input.partial") }
  var ids: String { path("ids.txt") }

  init() throws {
    directory = try CLIRunner.temporaryDirectory()
    try FileManager.default.copyItem(
      atPath: CLIRunner.fixture("corpus-one-malformed.jsonl"),
      toPath: directory.appendingPathComponent("input.jsonl").path)
    let partial = try CLIRunner.run(["group", "--quiet", "--emit", "partial", input])
    try Data(partial.stdout).write(to: URL(fileURLWithPath: self.partial))
    try Data("no-such-id\n".utf8).write(to: URL(fileURLWithPath: ids))
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func remove() { try? FileManager.default.removeItem(at: directory) }

  /// The names in the directory, sorted.
  func names(_ subdirectory: String? = nil) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: subdirectory.map(path) ?? directory.path).sorted()
  }

  func contents(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  func write(_ text: String, to name: String, mode: mode_t = 0o644) throws {
    try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    chmod(path(name), mode)
  }

  /// The file's type and permission bits (links not followed).
  func mode(_ name: String) -> mode_t? {
    var info = stat()
    guard lstat(path(name), &info) == 0 else { return nil }
    return info.st_mode
  }
}

/// The commands that write a report, each as the arguments of a small run.
enum OutputCommand: String, CaseIterable, CustomTestStringConvertible {
  case group, list, summary, merge, gen

  var testDescription: String { rawValue }

  /// Whether the command takes `--rejects`.
  var hasRejects: Bool { self == .group || self == .list || self == .summary }

  /// The arguments of a run over `scene`, writing the report to `output` (standard output when nil).
  func arguments(_ scene: OutputScene, output: String? = nil, extra: [String] = []) -> [String] {
    let outputArguments = output.map { ["-o", $0] } ?? []
    switch self {
    case .group, .list, .summary:
      return [rawValue, "--quiet", "--format", "json"] + outputArguments + extra + [scene.input]
    case .merge:
      return [rawValue, "--quiet", "--format", "json"] + outputArguments + extra + [scene.partial]
    case .gen:
      return [rawValue, "--count", "25"] + outputArguments + extra
    }
  }
}

/// Reads a descriptor on another thread until the run is over and nothing more comes.
final class DrainingReader: @unchecked Sendable {
  private let descriptor: Int32
  private let lock = NSLock()
  private var finished = false
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  init(_ descriptor: Int32) {
    self.descriptor = descriptor
    Thread.detachNewThread { [self] in
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 50)
        let over = lock.withLock { finished }
        if ready > 0 {
          let count = read(descriptor, &buffer, buffer.count)
          if count > 0 {
            lock.withLock { bytes += buffer[..<count] }
            continue
          }
          // End of file (no writer) or an error (a pty whose other side closed).
          if over { break }
          usleep(10_000)
        } else if over {
          break
        }
      }
      done.signal()
    }
  }

  /// Everything read, once the writer is known to be done.
  func finish() -> [UInt8] {
    lock.withLock { finished = true }
    done.wait()
    return lock.withLock { bytes }
  }
}

/// Whether this machine lets the tests mount a small tmpfs (root in most containers, not everywhere).
enum SmallFileSystem {
  static let available: Bool = {
    guard let directory = try? CLIRunner.temporaryDirectory() else { return false }
    defer { try? FileManager.default.removeItem(at: directory) }
    guard mount("tmpfs", directory.path, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount2(directory.path, 0)
    return true
  }()

  /// Mounts a 64 KiB tmpfs at `path` for `body`, unmounting it afterwards.
  static func with<T>(at path: String, _ body: () throws -> T) throws -> T {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    guard mount("tmpfs", path, "tmpfs", 0, "size=64k") == 0 else { throw POSIXError(.EPERM) }
    defer { umount2(path, Int32(MNT_DETACH)) }
    return try body()
  }
}
