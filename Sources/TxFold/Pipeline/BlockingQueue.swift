/// A first-in first-out queue whose `pop` waits for an element, used to hand
/// chunks and results between the reader and the workers.
///
/// Bounded by construction: the pipeline owns a fixed number of chunks, so no
/// queue can hold more than that. An element pushed belongs to the thread
/// that pops it.
final class BlockingQueue<Element>: Sendable {
  private struct Queue {
    var elements: [Element] = []
    var head = 0
    var closed = false

    var isEmpty: Bool { head == elements.count }

    mutating func take() -> Element? {
      guard head < elements.count else { return nil }
      let element = elements[head]
      head += 1
      if head > 64 && head * 2 > elements.count {
        elements.removeFirst(head)
        head = 0
      }
      return element
    }
  }

  private let queue = LockedValue(Queue())

  /// Adds an element and wakes the waiters.
  func push(_ element: Element) {
    queue.withLockWaking { $0.elements.append(element) }
  }

  /// Takes the oldest element, waiting for one; `nil` once closed and empty.
  func pop() -> Element? {
    queue.withLock(when: { !$0.isEmpty || $0.closed }) { $0.take() }
  }

  /// Takes the oldest element if there is one, without waiting.
  func tryPop() -> Element? {
    queue.withLock { $0.take() }
  }

  /// No more elements will come: waiters get `nil` once the queue is empty.
  func close() {
    queue.withLockWaking { $0.closed = true }
  }
}
