/// The output of `ExternalSorter.finish()`: entries in order, read one at a
/// time. Holds the temporary files until it is read to its end, closed or
/// released.
package final class SortedEntries {
  private var merge: KWayMerge<SortRun>?
  private let store: SpillStore?
  /// Entries still to hand out under `keepFirst` (`nil`: all).
  private var remaining: Int?

  init(merge: KWayMerge<SortRun>, store: SpillStore?, limit: Int?) {
    self.merge = merge
    self.store = store
    remaining = limit
  }

  /// The next entry in order, or `nil` after the last (the files are then
  /// released); with `keepFirst`, after that many.
  package func next() throws(SpillError) -> SortEntry? {
    guard let merge, remaining.map({ $0 > 0 }) ?? true else {
      close()
      return nil
    }
    do throws(SpillError) {
      if let entry = try merge.next() {
        remaining? -= 1
        return entry
      }
    } catch {
      close()
      throw error
    }
    close()
    return nil
  }

  /// Releases the temporary files now.
  package func close() {
    merge = nil
    store?.remove()
  }

  deinit { close() }
}
