import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--progress` off a terminal logs its line on time while the input stalls (a slow mount, a pipe
/// whose writer pauses), not only when a read returns.
@Suite("Progress while the input stalls", .serialized)
struct ProgressStallTests {
  /// A FIFO producer that pauses: it writes `head`, waits `pause` seconds, then writes `tail` and
  /// closes, on a thread of its own; `resumed` is when it went on writing.
  final class PausingWriter: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var resumedAt: Date?

    init(path: String, head: [UInt8], tail: [UInt8], pause: Double) {
      Thread.detachNewThread { [self] in
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let deadline = Date().addingTimeInterval(30)
        var descriptor: Int32 = -1
        while descriptor < 0 && Date() < deadline {
          // ENXIO until a reader has the FIFO open.
          descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
          if descriptor < 0 { usleep(1000) }
        }
        if descriptor >= 0 {
          Self.send(head, to: descriptor, until: deadline)
          Thread.sleep(forTimeInterval: pause)
          lock.withLock { resumedAt = Date() }
          Self.send(tail, to: descriptor, until: deadline)
          close(descriptor)
        }
        done.signal()
      }
    }

    private static func send(_ bytes: [UInt8], to descriptor: Int32, until deadline: Date) {
      var offset = 0
      while offset < bytes.count && Date() < deadline {
        let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
          offset += count
        } else if errno == EAGAIN || errno == EINTR {
          usleep(1000)
        } else {
          return
        }
      }
    }

    /// Waits until the writer has closed the FIFO or given up; when it resumed writing.
    func wait() -> Date? {
      done.wait()
      return lock.withLock { resumedAt }
    }
  }

  @Test("A progress line arrives while the writer pauses, and none after the run summary")
  func lineDuringStall() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "400", "--seed", "1", "-o", dump]).status == 0)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dump)))
    let fifo = directory.appendingPathComponent("fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)

    let process = Process()
    process.executableURL = CLIRunner.binary
    let output = directory.appendingPathComponent("report.csv").path
    process.arguments = ["group", "--progress", "--format", "csv", "-o", output, fifo]
    var environment = ProcessInfo.processInfo.environment
    environment["TXFOLD_PROGRESS_INTERVAL"] = "1"
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    // Each line of standard error with when it came.
    let received = LockedLines()
    let reader = Thread { [handle = errors.fileHandleForReading] in
      var pending = ""
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
          received.append(String(pending[..<newline]))
          pending = String(pending[pending.index(after: newline)...])
        }
      }
      received.finish()
    }
    reader.start()
    let writer = PausingWriter(
      path: fifo, head: Array(bytes.prefix(100)), tail: Array(bytes.dropFirst(100)), pause: 3.5)
    try process.run()
    let resumed = try #require(writer.wait(), "the writer never got the FIFO open")
    process.waitUntilExit()
    let lines = received.wait()
    #expect(process.terminationStatus == 0, "\(lines)")

    let progress = lines.filter { $0.line.hasPrefix("txfold: progress: ") }
    #expect(progress.contains { $0.at < resumed }, "no progress line during the pause: \(lines)")
    let summary = try #require(lines.firstIndex { $0.line.hasPrefix("txfold: 400 lines: ") }, "\(lines)")
    #expect(
      !lines[summary...].contains { $0.line.hasPrefix("txfold: progress: ") }, "a progress line after the summary")
  }

  /// Lines handed from the reading thread, each with its arrival time.
  final class LockedLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [(line: String, at: Date)] = []
    private var finished = false

    func append(_ line: String) {
      condition.withLock { lines.append((line, Date())) }
    }

    func finish() {
      condition.withLock {
        finished = true
        condition.broadcast()
      }
    }

    func wait() -> [(line: String, at: Date)] {
      condition.withLock {
        while !finished { condition.wait() }
        return lines
      }
    }
  }
}
