/// `for result in cursor { let transaction = try result.get() }`.
///
/// Reading may fail (the sort's temporary files), and a `Sequence` cannot
/// throw, so each element is a `Result`: the page's transactions as
/// `.success`, and a failure, if one comes, as the last element. Nothing is
/// dropped silently. `remainingTransactions()` reads the rest at once.
extension ListCursor: Sequence {
  /// Iterates the cursor's remaining page: each transaction, a failure once (then the end), or the end of the page.
  public func makeIterator() -> AnyIterator<Result<Transaction, PipelineError>> {
    resultIterator { [self] () throws(PipelineError) in try self.next() }
  }

  /// The rest of the page, in order.
  public func remainingTransactions() throws(PipelineError) -> [Transaction] {
    var transactions: [Transaction] = []
    while let transaction = try next() { transactions.append(transaction) }
    return transactions
  }
}

/// The iterator of a cursor whose `next` may fail (a `Sequence` cannot
/// throw): each element as `.success`, then a failure, if one comes, once
/// as the last element; nothing is dropped silently.
func resultIterator<Element>(_ next: @escaping () throws(PipelineError) -> Element?)
  -> AnyIterator<Result<Element, PipelineError>>
{
  var failed = false
  return AnyIterator { () -> Result<Element, PipelineError>? in
    guard !failed else { return nil }
    do throws(PipelineError) {
      return try next().map { .success($0) }
    } catch {
      failed = true
      return .failure(error)
    }
  }
}
