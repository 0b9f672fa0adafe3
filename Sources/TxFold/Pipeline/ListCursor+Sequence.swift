/// `for result in cursor { let transaction = try result.get() }`.
///
/// Reading may fail (the sort's temporary files), and a `Sequence` cannot
/// throw, so each element is a `Result`: the page's transactions as
/// `.success`, and a failure, if one comes, as the last element. Nothing is
/// dropped silently. `remainingTransactions()` reads the rest at once.
extension ListCursor: Sequence {
  /// Iterates the cursor's remaining page: each transaction, a failure once (then the end), or the end of the page.
  public func makeIterator() -> AnyIterator<Result<Transaction, PipelineError>> {
    var failed = false
    return AnyIterator { [self] () -> Result<Transaction, PipelineError>? in
      guard !failed else { return nil }
      do throws(PipelineError) {
        return try self.next().map { .success($0) }
      } catch {
        failed = true
        return .failure(error)
      }
    }
  }

  /// The rest of the page, in order.
  public func remainingTransactions() throws(PipelineError) -> [Transaction] {
    var transactions: [Transaction] = []
    while let transaction = try next() { transactions.append(transaction) }
    return transactions
  }
}
