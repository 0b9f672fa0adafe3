/// Where a read stands in its page (`PageRequest`): the one place that skips
/// the page's `offset` items of an ordered stream, then hands out at most
/// its `limit`, for every cursor that pages a sorted merge.
struct PageWindow {
  let page: PageRequest
  private var skipped = 0
  private var shown = 0

  init(_ page: PageRequest) {
    self.page = page
  }

  /// The next item of the page, read from `read` (the items in order); `nil`
  /// once the page is full or the items end.
  @inline(__always)
  mutating func next<Item, Failure: Error>(from read: () throws(Failure) -> Item?) throws(Failure) -> Item? {
    if let limit = page.limit, shown >= limit { return nil }
    while let item = try read() {
      if skipped < page.offset {
        skipped += 1
        continue
      }
      shown += 1
      return item
    }
    return nil
  }
}
