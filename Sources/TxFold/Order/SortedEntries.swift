/// The output of `ExternalSorter.finish()`: entries in order, read one at a
/// time. Holds the temporary files until it is read to its end, closed or
/// released.
package final class SortedEntries {
  private var merger: RunMerger?
  private let directory: SpillDirectory?
  /// Entries still to hand out under `keepFirst` (`nil`: all).
  private var remaining: Int?

  init(merger: RunMerger, directory: SpillDirectory?, limit: Int?) {
    self.merger = merger
    self.directory = directory
    remaining = limit
  }

  /// The next entry in order, or `nil` after the last (the files are then
  /// released); with `keepFirst`, after that many.
  package func next() throws(SpillError) -> SortEntry? {
    guard let merger, remaining.map({ $0 > 0 }) ?? true else {
      close()
      return nil
    }
    do throws(SpillError) {
      if let entry = try merger.next() {
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
    merger = nil
    directory?.remove()
  }

  deinit { close() }
}
