import Foundation
import Testing

@testable import TxFold

/// Workers yield to a reader that inflates (`WorkerCrew.submit(_:readerInflating:)`):
/// from their next chunk on they run at a lower priority, and only they do.
@Suite("Worker priority while the reader inflates")
struct WorkerPriorityTests {
  #if os(Linux)
    @Test("lowering a thread's priority changes that thread only")
    func perThread() throws {
      let before = try #require(SystemCalls.callingThreadNiceness())
      let seen = LockedValues()
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        let start = SystemCalls.callingThreadNiceness()
        let lowered = SystemCalls.lowerCallingThreadPriority(by: 3)
        seen.append([start, SystemCalls.callingThreadNiceness(), lowered ? 1 : 0])
        done.signal()
      }
      thread.start()
      done.wait()
      let values = seen.values
      #expect(values.count == 3)
      #expect(values.first == before)
      #expect(values.dropFirst().first == min(before + 3, 19))
      #expect(values.last == 1)
      // The caller's thread is as it was.
      #expect(SystemCalls.callingThreadNiceness() == before)
    }

    @Test("a crew's workers fold at their priority until told the reader inflates, then lower")
    func crewYields() throws {
      let before = try #require(SystemCalls.callingThreadNiceness())
      let seen = LockedValues()
      let crew = WorkerCrew<Void>(
        workers: [
          { chunk in
            seen.append([Int32(chunk.sequence), SystemCalls.callingThreadNiceness()])
            return ChunkResult(of: chunk)
          }
        ], chunkCapacity: 64, recycling: true)
      let first = crew.takeFreeChunk()
      first.sequence = 0
      crew.submit(first)
      // Wait for the first chunk's result before telling the crew.
      while crew.nextResult(waiting: true)?.result.sequence != 0 {}
      let second = crew.takeFreeChunk()
      second.sequence = 1
      crew.submit(second, readerInflating: true)
      crew.finish()
      let values = seen.values
      #expect(values == [0, before, 1, min(before + WorkerCrew<Void>.inflatingWorkerNiceness, 19)])
      #expect(SystemCalls.callingThreadNiceness() == before)
    }
  #endif
}

/// Values appended from other threads.
private final class LockedValues: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Int32?] = []
  func append(_ more: [Int32?]) {
    lock.lock()
    stored += more
    lock.unlock()
  }
  var values: [Int32?] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
