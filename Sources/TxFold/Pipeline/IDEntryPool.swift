/// The memory of the workers' id-entry buffers (`IDCollector`), which are all one size: one
/// mapping cut into slots, a slot given back when its chunk is freed (spilled or judged) and
/// taken again by the next buffer a worker fills, for the whole first pass.
///
/// Why: every record's entry is written into one of 128 buffers a worker fills at once, and
/// allocated one by one from the C library those buffers cost a page fault (and a zeroed page)
/// every 4 KiB of entries, about a fault every 60 records, plus a TLB entry per page being
/// filled. One mapping lets Linux back them with transparent huge pages (`madvise`, where the
/// system allows it; elsewhere the pages are the usual ones), and reusing slots keeps the pages
/// touched those that the id table's budget needs, not what the allocator happens to hand out
/// after a spill. Pages are touched only as slots are first used, so the resident memory is
/// what the buffers in use need, as before.
final class IDEntryPool: @unchecked Sendable {
  /// The bytes of a slot: a worker's buffer for one partition.
  let slotSize: Int
  /// How many slots the mapping holds.
  let slotCount: Int
  private let mapping: UnsafeMutableRawPointer?
  private let mappedCount: Int
  /// The first slot's address: the mapping's first huge-page boundary.
  private let base: UnsafeMutableRawPointer?
  private struct Slots {
    /// Slots given back, the most recent last: taken again first, their pages are warm.
    var free: [Int] = []
    /// Slots never used yet start here.
    var untouched = 0
    /// Whether the pass that fills buffers is over (`drain()`): no slot is taken again, and
    /// each slot given back gives its pages back too.
    var draining = false
  }
  private let slots: LockedValue<Slots>

  /// A pool of `slotCount` slots of `slotSize` bytes (rounded up to 64); without memory to map,
  /// a pool with no slots (every buffer is then allocated on its own).
  init(slotSize: Int, slotCount: Int) {
    let size = (max(slotSize, 64) + 63) & ~63
    self.slotSize = size
    let hugePage = 2 << 20
    // `--memory-limit` sets the slots' count: too many to map is a pool without slots, not a trap.
    let (wanted, tooMany) = size.multipliedReportingOverflow(by: max(0, slotCount))
    let (product, overflowed) = wanted.addingReportingOverflow(hugePage)
    if slotCount > 0, !tooMany, !overflowed, let mapped = SystemCalls.mapMemory(count: product) {
      mapping = mapped
      mappedCount = product
      let aligned = UnsafeMutableRawPointer(
        bitPattern: (UInt(bitPattern: Int(bitPattern: mapped)) + UInt(hugePage - 1)) & ~UInt(hugePage - 1))
      base = aligned
      // A small pool would take more memory in huge pages than its slots (a page is touched whole).
      if let aligned, wanted >= 4 * hugePage { SystemCalls.adviseHugePages(aligned, count: wanted) }
      self.slotCount = slotCount
    } else {
      mapping = nil
      mappedCount = 0
      base = nil
      self.slotCount = 0
    }
    var free: [Int] = []
    free.reserveCapacity(self.slotCount)
    slots = LockedValue(Slots(free: free))
  }

  deinit {
    if let mapping { SystemCalls.unmapMemory(mapping, count: mappedCount) }
  }

  /// How many slots have been used so far: the pool's pages touched.
  var slotsTouched: Int { slots.withLock { $0.untouched } }

  /// An empty chunk in a slot of the pool, or `nil` when every slot is in use.
  func take() -> IDEntryChunk? {
    guard let base else { return nil }
    let slot = slots.withLock { (slots) -> Int? in
      guard !slots.draining else { return nil }
      if let slot = slots.free.popLast() { return slot }
      guard slots.untouched < slotCount else { return nil }
      defer { slots.untouched += 1 }
      return slots.untouched
    }
    guard let slot else { return nil }
    return IDEntryChunk(
      slotOf: self, storage: UnsafeMutableRawBufferPointer(start: base + slot * slotSize, count: slotSize))
  }

  /// Takes back the slot at `address` (a chunk of this pool is being freed).
  func give(_ address: UnsafeMutableRawPointer) {
    guard let base else { return }
    let slot = (address - base) / slotSize
    let draining = slots.withLock { (slots) -> Bool in
      slots.free.append(slot)
      return slots.draining
    }
    if draining { SystemCalls.discardPages(address, count: slotSize) }
  }

  /// Ends the filling: the free slots' pages go back to the system, and so will each slot's as
  /// its chunk is freed. Why: the entries are judged next, a partition at a time, and what
  /// judging one allocates (its spilled entries read back, its table) would otherwise come on
  /// top of the pool's pages instead of in the place of those the judged partitions freed.
  func drain() {
    guard let base else { return }
    let free = slots.withLock { (slots) -> [Int] in
      slots.draining = true
      return slots.free
    }
    // Neighbouring free slots given back together: one call for each run of them.
    var runStart = 0
    let sorted = free.sorted()
    for index in sorted.indices where index + 1 == sorted.count || sorted[index + 1] != sorted[index] + 1 {
      let first = sorted[runStart]
      SystemCalls.discardPages(base + first * slotSize, count: (sorted[index] - first + 1) * slotSize)
      runStart = index + 1
    }
  }
}
