import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM at different moments of a run: the process ends with
/// 128 + the signal (or is killed by it before its handler is in place) and
/// leaves no report, no rejects file and no temporary file behind.
@Suite("Interrupts at any moment")
struct SignalTests {
  @Test(
    "No partial outputs after an interrupt",
    arguments: [
      (SIGINT, 0), (SIGTERM, 0), (SIGINT, 20), (SIGTERM, 50), (SIGINT, 150), (SIGTERM, 400),
    ] as [(Int32, Int)])
  func interrupted(signalNumber: Int32, delayMilliseconds: Int) throws {
    // Writing to the pipe of a process that is gone must fail, not kill the test runner.
    signal(SIGPIPE, SIG_IGN)
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "group", "--quiet", "-o", directory.appendingPathComponent("report.json").path, "--rejects",
      directory.appendingPathComponent("rejects.jsonl").path,
    ]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Keep records flowing (some bad, so the rejects file has content) until the process is gone.
    let writer = input.fileHandleForWriting
    let record = Data((backbaseLine + "\n{bad\n").utf8)
    let feeding = Thread {
      for _ in 0..<20_000 {
        guard (try? writer.write(contentsOf: record)) != nil else { return }
      }
    }
    feeding.start()
    usleep(UInt32(delayMilliseconds * 1000))
    kill(process.processIdentifier, signalNumber)
    process.waitUntilExit()
    try? writer.close()
    let killedOutright = process.terminationReason == .uncaughtSignal && process.terminationStatus == signalNumber
    #expect(process.terminationStatus == 128 + signalNumber || killedOutright, "status \(process.terminationStatus)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }
}

private let backbaseLine =
  #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"PENDING"}"#
