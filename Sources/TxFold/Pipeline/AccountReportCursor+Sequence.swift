/// `for result in cursor { let account = try result.get() }`.
///
/// Merging accounts back from disk may fail, and a `Sequence` cannot throw,
/// so each element is a `Result`: the accounts as `.success`, and a failure,
/// if one comes, as the last element. Iterating consumes the cursor; `stats`
/// is complete once the iteration has ended.
extension AccountReportCursor: Sequence {
  /// Hands out the cursor's accounts one at a time.
  public struct Iterator: IteratorProtocol {
    private let cursor: AccountReportCursor
    private var failed = false

    init(cursor: AccountReportCursor) { self.cursor = cursor }

    /// The next account, a failure once (then `nil`), or `nil` after the last.
    public mutating func next() -> Result<AccountReport, PipelineError>? {
      guard !failed else { return nil }
      do throws(PipelineError) {
        return try cursor.next().map { .success($0) }
      } catch {
        failed = true
        return .failure(error)
      }
    }
  }

  /// Iterates the remaining accounts.
  public func makeIterator() -> Iterator { Iterator(cursor: self) }
}
