import Foundation

/// A thread that calls `tick` when it is due, until stopped: `--progress` off a terminal logs its
/// line on time even while a read waits (a stalled pipe or network mount), when the pipeline,
/// which reports only as chunks fill, says nothing.
final class ProgressTicker: @unchecked Sendable {
  // `stopping` and `running` are read and changed only with `condition` locked.
  private let condition = NSCondition()
  private var stopping = false
  private var running = true

  /// Starts the thread; it first calls `tick` after `first`, then after whatever `tick` returns
  /// (the time until the next line is due).
  init(first: Duration, tick: @escaping @Sendable () -> Duration) {
    let thread = Thread { [self] in run(first: first, tick: tick) }
    thread.start()
  }

  private func run(first: Duration, tick: @Sendable () -> Duration) {
    condition.lock()
    var deadline = Date(timeIntervalSinceNow: Self.seconds(first))
    while !stopping {
      if Date() < deadline {
        _ = condition.wait(until: deadline)
        continue
      }
      // Unlocked while the line is written, so `stop` is never kept waiting for the lock.
      condition.unlock()
      let wait = tick()
      condition.lock()
      deadline = Date(timeIntervalSinceNow: Self.seconds(wait))
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }

  /// Stops the thread and waits until it has ended, so no `tick` comes after this returns.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
