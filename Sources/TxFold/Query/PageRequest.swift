/// Which part of an ordered list to show: `offset` items skipped, then at most
/// `limit` (the Swile seed's pagination).
///
/// Two ways to ask, as `txfold list` offers them: `--limit N --offset M` is
/// `PageRequest(offset: M, limit: N)`; `--page-size S --page K` (1-based) is
/// `PageRequest.page(K, size: S)`, which is offset `(K - 1) × S`, limit `S`.
/// A page past the end is empty, never an error.
public struct PageRequest: Sendable, Hashable {
  /// Items skipped from the start.
  public let offset: Int
  /// The most items shown; `nil` shows all that remain.
  public let limit: Int?

  /// Everything.
  public static let all = PageRequest()

  /// Skips `offset` items, then shows at most `limit` (`nil`: no limit).
  /// Negative values count as 0.
  public init(offset: Int = 0, limit: Int? = nil) {
    self.offset = max(0, offset)
    self.limit = limit.map { max(0, $0) }
  }

  /// Page `number` (1-based) of pages of `size` items, or `nil` when `number`
  /// or `size` is below 1 or the offset would overflow.
  public static func page(_ number: Int, size: Int) -> PageRequest? {
    guard number >= 1, size >= 1 else { return nil }
    let (offset, overflow) = (number - 1).multipliedReportingOverflow(by: size)
    guard !overflow else { return nil }
    return PageRequest(offset: offset, limit: size)
  }

  /// The position after the last item shown, or `nil` without a limit.
  public var end: Int? {
    guard let limit else { return nil }
    let (end, overflow) = offset.addingReportingOverflow(limit)
    return overflow ? Int.max : end
  }

  /// The items of this page.
  ///
  /// - Complexity: O(1).
  public func apply<Element>(_ items: [Element]) -> ArraySlice<Element> {
    let start = min(offset, items.count)
    let stop = min(end ?? items.count, items.count)
    return items[start..<stop]
  }
}
