/// A heap's entries, slots and text in one allocation.
///
/// Most groups of a per-account fold keep one member or two, and a night
/// makes and frees such groups by the hundred thousand: with the three in
/// arrays of their own, each group cost three allocations and three frees,
/// and the allocator's work was a large share of the night's CPU. One block
/// holds the three regions one after another, each with a capacity of its
/// own: `memberCapacity` entries, then `memberCapacity` slots (the entries
/// never outnumber the slots, so the entries' region always has room for
/// one more kept member when a slot is made for it), then `textCapacity`
/// bytes of text. Growing one region moves the others with it, so a region
/// grows by doubling and a heap's first block takes room for its first
/// member's text at once.
///
/// The heap is a value: a copy shares the block until either changes it
/// (`uniqueStorage()`), as three arrays did.
@usableFromInline
struct MemberStorageHeader {
  /// Entries kept (`MemberHeap.count`).
  @usableFromInline var entryCount = 0
  /// Slots made (entries and the spare).
  @usableFromInline var slotCount = 0
  /// Room for entries, and for slots, in this block.
  @usableFromInline let memberCapacity: Int
  /// Text bytes in use (every slot's room lies within them).
  @usableFromInline var textCount = 0
  /// Room for text bytes in this block.
  @usableFromInline let textCapacity: Int

  @inlinable init(memberCapacity: Int, textCapacity: Int) {
    self.memberCapacity = memberCapacity
    self.textCapacity = textCapacity
  }
}

/// The block: its header, then the three regions in 8-byte words.
@usableFromInline typealias MemberStorage = ManagedBuffer<MemberStorageHeader, UInt64>

extension MemberHeap {
  /// A new block with room for `memberCapacity` members and `textCapacity`
  /// bytes of text, each region's memory bound to its type.
  @usableFromInline
  static func makeStorage(memberCapacity: Int, textCapacity: Int) -> MemberStorage {
    // A block is freed without deinitializing its regions, and grown by copying them.
    assert(_isPOD(Entry.self) && _isPOD(Slot.self), "a block's values must own nothing")
    let bytes = textOffset(memberCapacity: memberCapacity) + textCapacity
    let storage = MemberStorage.create(minimumCapacity: (bytes + 7) / 8) { _ in
      MemberStorageHeader(memberCapacity: memberCapacity, textCapacity: textCapacity)
    }
    storage.withUnsafeMutablePointerToElements { words in
      // Safe because the block holds `bytes` bytes from `words`: each region is bound within them once.
      let raw = UnsafeMutableRawPointer(words)
      raw.bindMemory(to: Entry.self, capacity: memberCapacity)
      (raw + slotsOffset(memberCapacity: memberCapacity)).bindMemory(to: Slot.self, capacity: memberCapacity)
      (raw + textOffset(memberCapacity: memberCapacity)).bindMemory(to: UInt8.self, capacity: textCapacity)
    }
    return storage
  }

  /// Where the slots' region starts in a block's elements.
  @inlinable @inline(__always)
  static func slotsOffset(memberCapacity: Int) -> Int {
    memberCapacity * MemoryLayout<Entry>.stride
  }

  /// Where the text's region starts in a block's elements.
  @inlinable @inline(__always)
  static func textOffset(memberCapacity: Int) -> Int {
    memberCapacity * (MemoryLayout<Entry>.stride + MemoryLayout<Slot>.stride)
  }

  /// The block's header, read and written through its address: as a class's
  /// stored property (`ManagedBuffer.header`) every access to it would pay
  /// a dynamic exclusivity check.
  @inlinable @inline(__always)
  static func header(of storage: MemberStorage) -> UnsafeMutablePointer<MemberStorageHeader> {
    storage.withUnsafeMutablePointerToHeader { $0 }
  }

  /// The block's header (`nil` without a block).
  @inlinable var header: UnsafeMutablePointer<MemberStorageHeader>? {
    guard let storage else { return nil }
    return Self.header(of: storage)
  }

  /// The entries kept (empty without a block).
  @inlinable var entries: UnsafeMutableBufferPointer<Entry> {
    region(Entry.self, count: { $0.entryCount }, at: { _ in 0 })
  }

  /// The slots made (empty without a block).
  @inlinable var slots: UnsafeMutableBufferPointer<Slot> {
    region(Slot.self, count: { $0.slotCount }, at: Self.slotsOffset(memberCapacity:))
  }

  /// The text in use (empty without a block).
  @inlinable var text: UnsafeMutableBufferPointer<UInt8> {
    region(UInt8.self, count: { $0.textCount }, at: Self.textOffset(memberCapacity:))
  }

  /// One of the block's three regions: `count` of the header's elements
  /// of `type`, at the offset the block's member capacity gives.
  @inlinable @inline(__always)
  func region<Element>(
    _ type: Element.Type, count: (MemberStorageHeader) -> Int, at offset: (Int) -> Int
  ) -> UnsafeMutableBufferPointer<Element> {
    guard let storage else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
    let header = Self.header(of: storage)
    let start = offset(header.pointee.memberCapacity)
    let count = count(header.pointee)
    return storage.withUnsafeMutablePointerToElements { words in
      UnsafeMutableBufferPointer(
        start: (UnsafeMutableRawPointer(words) + start).assumingMemoryBound(to: type), count: count)
    }
  }

  /// Room for members in the block (0 without one).
  @inlinable var memberCapacity: Int { header?.pointee.memberCapacity ?? 0 }
  /// Room for text bytes in the block (0 without one).
  @inlinable var textCapacity: Int { header?.pointee.textCapacity ?? 0 }

  /// Makes the block this heap's alone (a copy of it when another heap
  /// shares it) before the heap changes what it holds: what an array's
  /// mutation checks. Every change goes through here or through `grow`.
  @inlinable @inline(__always)
  mutating func uniqueStorage() {
    if storage == nil || isKnownUniquelyReferenced(&storage) { return }
    grow(memberCapacity: memberCapacity, textCapacity: textCapacity)
  }

  /// Moves the heap into a new block with at least this room (and a copy
  /// of what it holds); the old block is freed unless another heap shares it.
  @usableFromInline
  mutating func grow(memberCapacity: Int, textCapacity: Int) {
    let new = Self.makeStorage(
      memberCapacity: Swift.max(memberCapacity, self.memberCapacity),
      textCapacity: Swift.max(textCapacity, self.textCapacity))
    if let old = storage {
      let entries = self.entries
      let slots = self.slots
      let text = self.text
      Self.header(of: new).pointee.entryCount = entries.count
      Self.header(of: new).pointee.slotCount = slots.count
      Self.header(of: new).pointee.textCount = text.count
      storage = new
      // Safe because the new block has at least the old one's room in each region, and the regions do not overlap.
      if let from = entries.baseAddress { self.entries.baseAddress?.initialize(from: from, count: entries.count) }
      if let from = slots.baseAddress { self.slots.baseAddress?.initialize(from: from, count: slots.count) }
      if let from = text.baseAddress { self.text.baseAddress?.initialize(from: from, count: text.count) }
      withExtendedLifetime(old) {}
    } else {
      storage = new
    }
  }

  /// Makes the text region `count` bytes longer (the new bytes uninitialized
  /// room) and returns where they start: the block grows when its room is
  /// short, to twice its text room at least.
  @usableFromInline
  mutating func extendText(by count: Int) -> Int {
    uniqueStorage()
    let start = text.count
    if start + count > textCapacity {
      grow(memberCapacity: memberCapacity, textCapacity: Swift.max(start + count, 2 * textCapacity))
    }
    header?.pointee.textCount = start + count
    textGrew = true
    return start
  }

  /// Adds a slot (its values given when written), growing the block by
  /// doubling, never past what the limit needs (a slot per kept member and
  /// the spare), so a group reserves no room for members it has not seen.
  /// A block's first room for text is `textRoom`, what its first member
  /// takes; a larger block takes text room for its new slots as large as
  /// the average one so far, so the text seldom grows the block again.
  @inlinable
  mutating func appendSlot(textRoom: Int) -> Int {
    uniqueStorage()
    let count = slots.count
    if count == memberCapacity {
      let bound = limit == Int.max ? Int.max : limit + 1
      let capacity = Swift.min(bound, Swift.max(1, 2 * count))
      let perSlot = count == 0 ? textRoom : text.count / count
      grow(memberCapacity: capacity, textCapacity: text.count + (capacity - count) * perSlot)
    }
    header?.pointee.slotCount = count + 1
    slots.baseAddress?.advanced(by: count).initialize(to: Slot(instant: .epoch, amount: .zero))
    return count
  }

  /// Adds an entry at the end (the block has room: there is a slot for it).
  @inlinable
  mutating func appendEntry(_ entry: Entry) {
    uniqueStorage()
    guard let storage else { return }
    let count = Self.header(of: storage).pointee.entryCount
    precondition(count < Self.header(of: storage).pointee.memberCapacity, "no room for an entry")
    Self.header(of: storage).pointee.entryCount = count + 1
    entries[count] = entry
  }

  /// Forgets every entry, slot and text, keeping the block.
  @inlinable
  mutating func removeAllMembersKeepingRoom() {
    uniqueStorage()
    header?.pointee.entryCount = 0
    header?.pointee.slotCount = 0
    header?.pointee.textCount = 0
  }
}
