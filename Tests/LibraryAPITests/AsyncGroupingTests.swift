import Foundation
import Testing
import TxFold

/// An async sequence of byte chunks cut from `bytes` at `size`, yielding to
/// the scheduler between chunks, as a network stream would.
struct ChunkedBytes: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let bytes: [UInt8]
  let size: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    let size: Int
    var offset = 0
    mutating func next() async -> [UInt8]? {
      guard offset < bytes.count else { return nil }
      await Task.yield()
      defer { offset += size }
      return Array(bytes[offset..<Swift.min(bytes.count, offset + size)])
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size) }
}

/// Records without end that never look at cancellation themselves: only the
/// library's own check can stop a run over it.
struct EndlessRecords: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  struct AsyncIterator: AsyncIteratorProtocol {
    var index = 0
    mutating func next() async -> [UInt8]? {
      index += 1
      await Task.yield()
      let line =
        #"{"id":"\#(index)","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-17T09:00:00","state":"COMPLETED"}"#
      return Array((line + "\n").utf8)
    }
  }
  func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// Fails after a first chunk.
struct FailingBytes: AsyncSequence, Sendable {
  typealias Element = Data
  struct StreamBroke: Error, Equatable {}
  struct AsyncIterator: AsyncIteratorProtocol {
    var sent = false
    mutating func next() async throws -> Data? {
      if sent { throw StreamBroke() }
      sent = true
      return Data("{\"id\":\"1\"".utf8)
    }
  }
  func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

@Suite("Async grouping and concurrency")
struct AsyncGroupingTests {
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path(name))))
  }

  @Test(
    "A stream of chunks gives the file's report, whatever the chunk size",
    arguments: [
      ("corpus.jsonl", 1), ("corpus.jsonl", 7), ("corpus.jsonl.gz", 3), ("corpus-array.json", 4096),
      ("corpus-wrapped.json", 64),
    ])
  func streamEqualsFile(name: String, chunkSize: Int) async throws {
    let fromFile = try GroupPipeline(options: GroupOptions()).run(paths: [Fixture.path(name)])
    let stream = ChunkedBytes(bytes: try Self.bytes(name), size: chunkSize)
    let fromStream = try await GroupPipeline.run(options: GroupOptions(), name: name, chunks: stream)
    #expect(fromStream.sections == fromFile.sections)
    #expect(fromStream.stats.lines == fromFile.stats.lines)
    #expect(fromStream.stats.bytesRead == fromFile.stats.bytesRead)
  }

  @Test("The async path entry gives the synchronous report, rejections included")
  func pathsEntry() async throws {
    let path = Fixture.path("corpus-one-malformed.jsonl")
    let lines = LineCollector()
    let report = try await GroupPipeline.run(options: GroupOptions(), paths: [path]) { lines.add($0.line) }
    #expect(report == (try GroupPipeline(options: GroupOptions()).run(paths: [path])))
    #expect(lines.lines == [5])
  }

  @Test("Cancelling a run over an endless stream stops it promptly with CancellationError")
  func cancelEndlessStream() async throws {
    var options = GroupOptions()
    options.read.chunkSize = 64 * 1024
    let task = Task.detached { try await GroupPipeline.run(options: options, chunks: EndlessRecords()) }
    try await Task.sleep(for: .milliseconds(300))
    let cancelled = ContinuousClock.now
    task.cancel()
    let result = await task.result
    let elapsed = ContinuousClock.now - cancelled
    #expect(throws: CancellationError.self) { try result.get() }
    // The stream is endless, so ending at all is the cancellation's doing; the bound says it was
    // not just eventually. It is loose because on two busy cores the other suites, running in
    // parallel, can keep the cancelled task off the cooperative pool for seconds (seen: 8 s and
    // 38 s under full-suite load; 0.3 s alone).
    #expect(elapsed < .seconds(60), "took \(elapsed)")
  }

  @Test("Cancelling a run over files stops it at its next read with CancellationError")
  func cancelPathsMidRun() async throws {
    // A file of about 190 chunks whose first and last records are rejected. With one thread the
    // rejection callback runs right after the first chunk is folded, and holds the pipeline there
    // until the task is cancelled: the cancellation lands mid-run, with nearly all the file
    // unread. A run that went on reading would reach the last line and report it too.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-cancel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("long.jsonl").path
    var text = "not a record\n"
    for index in 0..<64_000 {
      text +=
        #"{"id":"\#(index)","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2019-05-17T09:00:00","state":"COMPLETED"}"#
        + "\n"
    }
    text += "not a record either\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    var options = GroupOptions()
    options.threads = 1
    options.read.chunkSize = 64 * 1024
    let (started, running) = AsyncStream.makeStream(of: Void.self)
    let proceed = DispatchSemaphore(value: 0)
    let lines = LineCollector()
    let task = Task.detached {
      try await GroupPipeline.run(options: options, paths: [path]) { rejection in
        lines.add(rejection.line)
        running.yield()
        running.finish()
        // Waits once for the test's cancel; any later rejection passes straight through.
        proceed.wait()
        proceed.signal()
      }
    }
    for await _ in started { break }
    task.cancel()
    let cancelled = ContinuousClock.now
    proceed.signal()
    let result = await task.result
    let elapsed = ContinuousClock.now - cancelled
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(lines.lines == [1], "the run read on to line \(lines.lines.last ?? 0) after the cancel")
    #expect(elapsed < .seconds(5), "took \(elapsed)")
  }

  @Test("A task cancelled before it starts reads nothing and throws CancellationError")
  func cancelledBeforeStart() async {
    let path = Fixture.path("corpus.jsonl")
    let task = Task.detached {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await GroupPipeline.run(options: GroupOptions(), paths: [path])
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    let stream = Task.detached {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await GroupPipeline.run(options: GroupOptions(), chunks: EndlessRecords())
    }
    await #expect(throws: CancellationError.self) { try await stream.value }
  }

  @Test("The stream's own error is what the call throws")
  func streamFailure() async {
    await #expect(throws: FailingBytes.StreamBroke.self) {
      try await GroupPipeline.run(options: GroupOptions(), chunks: FailingBytes())
    }
  }

  @Test("Run failures come out as PipelineError")
  func pipelineFailure() async throws {
    var options = GroupOptions()
    options.read.strict = true
    let stream = ChunkedBytes(bytes: try Self.bytes("corpus-one-malformed.jsonl"), size: 100)
    await #expect {
      try await GroupPipeline.run(options: options, chunks: stream)
    } throws: { error in
      guard let error = error as? PipelineError, case .strictRejection(let rejection) = error else { return false }
      return rejection.line == 5
    }
  }

  @Test("Many tasks group at once and agree with a single run")
  func manyTasks() async throws {
    let names = ["corpus.jsonl", "corpus.jsonl.gz", "corpus-array.json", "corpus-wrapped.json"]
    var expected: [String: GroupReport] = [:]
    for name in names { expected[name] = try GroupPipeline(options: GroupOptions()).run(paths: [Fixture.path(name)]) }
    var twoThreads = GroupOptions()
    twoThreads.threads = 2
    let options = twoThreads
    let bytes = try Dictionary(uniqueKeysWithValues: names.map { ($0, try Self.bytes($0)) })
    let results = try await withThrowingTaskGroup(of: (String, GroupReport).self) { group in
      for round in 0..<8 {
        for name in names {
          let input = bytes[name] ?? []
          group.addTask {
            switch round % 3 {
            case 0:
              let source = try InputOpener.open(bytes: input, name: name)
              return (name, try GroupPipeline(options: options).run(sources: [source]))
            case 1: return (name, try await GroupPipeline.run(options: options, paths: [Fixture.path(name)]))
            default:
              return (name, try await GroupPipeline.run(options: options, chunks: ChunkedBytes(bytes: input, size: 13)))
            }
          }
        }
      }
      var results: [(String, GroupReport)] = []
      for try await result in group { results.append(result) }
      return results
    }
    #expect(results.count == 8 * names.count)
    for (name, report) in results { #expect(report.sections == expected[name]?.sections, "\(name)") }
  }
}

/// Collects rejection lines from the pipeline's thread. A lock, not `Mutex` (macOS 15 / iOS 18
/// on), so the test target builds for the systems `Package.swift` declares.
///
/// `@unchecked Sendable`: `storage` is read and written only under `lock`.
final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Int] = []
  func add(_ line: Int) { lock.withLock { storage.append(line) } }
  var lines: [Int] { lock.withLock { storage } }
}

/// Single bytes, as `URLSession.AsyncBytes` hands them out.
struct SingleBytes: AsyncSequence, Sendable {
  typealias Element = UInt8
  let bytes: [UInt8]
  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    var offset = 0
    mutating func next() async -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }
  }
  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

@Suite("Sendable values and byte streams")
struct SendableAPITests {
  func requireSendable<T: Sendable>(_: T.Type) {}

  @Test("Reports, options and values are Sendable (checked when this compiles)")
  func sendableTypes() {
    requireSendable(GroupReport.self)
    requireSendable(ReportSection.self)
    requireSendable(TransactionGroup.self)
    requireSendable(GroupMember.self)
    requireSendable(SummaryReport.self)
    requireSendable(Transaction.self)
    requireSendable(SelectionSum.self)
    requireSendable(GroupOptions.self)
    requireSendable(ListOptions.self)
    requireSendable(SummaryOptions.self)
    requireSendable(ExactDecimal.self)
    requireSendable(PipelineError.self)
  }

  @Test("A stream of single bytes groups as the file does", arguments: [1, 5, 64 * 1024])
  func singleBytes(batch: Int) async throws {
    let path = Fixture.path("corpus.jsonl.gz")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let expected = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    let chunks = AsyncStream<[UInt8]> { continuation in
      for start in stride(from: 0, to: bytes.count, by: batch) {
        continuation.yield(Array(bytes[start..<min(start + batch, bytes.count)]))
      }
      continuation.finish()
    }
    let report = try await GroupPipeline.run(options: GroupOptions(), chunks: chunks)
    #expect(report.sections == expected.sections)
    let direct = try await GroupPipeline.run(options: GroupOptions(), bytes: SingleBytes(bytes: bytes))
    #expect(direct.sections == expected.sections)
  }

  /// Endless single bytes that cancel the task iterating them once `cancelAt` bytes are out, and
  /// note the bytes asked for after that: a network stream trickling in, which does not look at
  /// cancellation itself.
  struct CancellingBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let cancelAt: Int
    let pulledAfterCancel: LineCollector
    struct AsyncIterator: AsyncIteratorProtocol {
      let cancelAt: Int
      let pulledAfterCancel: LineCollector
      var sent = 0
      mutating func next() async -> UInt8? {
        sent += 1
        if sent == cancelAt { withUnsafeCurrentTask { $0?.cancel() } }
        if sent > cancelAt { pulledAfterCancel.add(sent) }
        return UInt8(ascii: " ")
      }
    }
    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(cancelAt: cancelAt, pulledAfterCancel: pulledAfterCancel)
    }
  }

  /// Cancellation is looked at per byte, not per gathered batch: a slow stream of single bytes
  /// (one a millisecond) would otherwise keep a cancelled task for a whole 64 KiB batch, a minute.
  @Test("A stream of single bytes stops at the byte its task was cancelled at")
  func singleBytesCancelled() async throws {
    let pulled = LineCollector()
    let bytes = CancellingBytes(cancelAt: 100, pulledAfterCancel: pulled)
    await #expect(throws: CancellationError.self) {
      _ = try await GroupPipeline.run(options: GroupOptions(), bytes: bytes)
    }
    #expect(pulled.lines.count == 0)  // bytes asked for after the cancellation
  }

  @Test("A report built in a detached task comes back whole")
  func detached() async throws {
    let options = GroupOptions()
    let path = Fixture.path("corpus.jsonl")
    let report = try await Task.detached { try GroupPipeline(options: options).run(paths: [path]) }.value
    #expect(report == (try GroupPipeline(options: options).run(paths: [path])))
  }
}
