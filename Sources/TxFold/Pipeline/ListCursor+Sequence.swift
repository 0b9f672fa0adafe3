/// `for result in cursor { let transaction = try result.get() }`.
///
/// Reading may fail (the sort's temporary files), and a `Sequence` cannot
/// throw, so each element is a `Result`: the page's transactions as
/// `.success`, and a failure, if one comes, as the last element. Nothing is
/// dropped silently. `remainingTransactions()` reads the rest at once.
extension ListCursor: Sequence {
  /// Reads the cursor's page one transaction at a time; iterating consumes the cursor.
  public struct Iterator: IteratorProtocol {
    private let cursor: ListCursor
    private var failed = false

    init(cursor: ListCursor) { self.cursor = cursor }

    /// The next transaction, a failure once (then `nil`), or `nil` at the end of the page.
    public mutating func next() -> Result<Transaction, QueryPipelineError>? {
      guard !failed else { return nil }
      do throws(QueryPipelineError) {
        return try cursor.next().map { .success($0) }
      } catch {
        failed = true
        return .failure(error)
      }
    }
  }

  /// Iterates the cursor's remaining page.
  public func makeIterator() -> Iterator { Iterator(cursor: self) }

  /// The rest of the page, in order.
  public func remainingTransactions() throws(QueryPipelineError) -> [Transaction] {
    var transactions: [Transaction] = []
    while let transaction = try next() { transactions.append(transaction) }
    return transactions
  }
}
