/// `for result in cursor { let account = try result.get() }`.
///
/// Merging accounts back from disk may fail, and a `Sequence` cannot throw,
/// so each element is a `Result`: the accounts as `.success`, and a failure,
/// if one comes, as the last element. Iterating consumes the cursor; `stats`
/// is complete once the iteration has ended.
extension AccountReportCursor: Sequence {
  /// Iterates the remaining accounts: each one, a failure once (then the end), or the end after the last.
  public func makeIterator() -> AnyIterator<Result<AccountReport, PipelineError>> {
    resultIterator { [self] () throws(PipelineError) in try self.next() }
  }
}
