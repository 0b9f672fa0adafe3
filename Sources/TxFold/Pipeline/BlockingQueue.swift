import Foundation

/// A first-in first-out queue whose `pop` waits for an element, used to hand
/// chunks and results between the reader and the workers.
///
/// Bounded by construction: the pipeline owns a fixed number of chunks, so no
/// queue can hold more than that.
final class BlockingQueue<Element>: @unchecked Sendable {
  private var elements: [Element] = []
  private var head = 0
  private var closed = false
  private let condition = NSCondition()

  /// Adds an element and wakes one waiter.
  func push(_ element: Element) {
    condition.lock()
    elements.append(element)
    condition.signal()
    condition.unlock()
  }

  /// Takes the oldest element, waiting for one; `nil` once closed and empty.
  func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while head == elements.count && !closed { condition.wait() }
    return takeLocked()
  }

  /// Takes the oldest element if there is one, without waiting.
  func tryPop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    return takeLocked()
  }

  /// No more elements will come: waiters get `nil` once the queue is empty.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  private func takeLocked() -> Element? {
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
