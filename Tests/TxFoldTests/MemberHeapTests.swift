import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// `MemberHeap` keeps the first N members in report order whatever order they
/// arrive in, whether its entries form a sorted ring or a heap.
@Suite("Member heap")
struct MemberHeapTests {
  /// A member and the record text its strings are read from on the record path.
  struct Candidate {
    var member: KeptMember
    var record: [UInt8]
    var id: ValueRef
    var description: ValueRef
  }

  /// Members over few instants, so ties are common: repeated ids, one instant
  /// written three ways, escaped ids, members without a description, and
  /// exact duplicates.
  static func candidates(seed: UInt64, count: Int) -> [Candidate] {
    var random = SplitMix64(seed: seed)
    let offsets = ["Z", "+00:00", "+01:00"]
    var candidates: [Candidate] = []
    for index in 0..<count {
      if index > 0 && random.next(below: 10) == 0 {
        candidates.append(candidates[index - 1])
        continue
      }
      let minute = random.next(below: 12)
      let offset = offsets[random.next(below: 3)]
      // "+01:00" an hour later is the same instant as the others.
      let hour = offset == "+01:00" ? 11 : 10
      let time = "2019-05-17T\(hour):\(minute < 10 ? "0" : "")\(minute):00\(offset)"
      let escaped = random.next(below: 5) == 0
      let idText = "t\(random.next(below: 6))"
      let amount = ["1.5", "1.50", "20", "0.07"][random.next(below: 4)]
      let description: String? = random.next(below: 4) == 0 ? nil : "shop \(random.next(below: 3))"
      candidates.append(
        candidate(time: time, id: idText, escapedID: escaped, amount: amount, description: description))
    }
    return candidates
  }

  static func candidate(
    time: String, id: String, escapedID: Bool = false, amount: String, description: String?
  ) -> Candidate {
    // The record: the id written as is or with its first letter escaped, then the description.
    let idWritten = escapedID ? "\\u00" + String(id.utf8.first ?? 0, radix: 16) + id.dropFirst() : id
    var record = Array("{\"id\":\"".utf8)
    let idStart = record.count
    record += Array(idWritten.utf8)
    let idRef = ValueRef(start: idStart, end: record.count, kind: escapedID ? .escapedString : .string)
    record += Array("\",\"description\":\"".utf8)
    let descriptionStart = record.count
    record += Array((description ?? "").utf8)
    let descriptionRef =
      description == nil
      ? ValueRef.absent : ValueRef(start: descriptionStart, end: record.count, kind: .string)
    record += Array("\"}".utf8)
    let instant = TimestampParser.parse(time) ?? .epoch
    let member = KeptMember(
      instant: instant, amount: ExactDecimal(amount) ?? .zero, id: Array(id.utf8), currency: Array("EUR".utf8),
      description: description.map { Array($0.utf8) })
    return Candidate(member: member, record: record, id: idRef, description: descriptionRef)
  }

  /// The first `limit` members in report order, by a full sort.
  static func expected(_ candidates: [Candidate], limit: Int) -> [KeptMember] {
    Array(candidates.map(\.member).sorted { $0.compareReportOrder($1) < 0 }.prefix(limit))
  }

  /// How members are offered: from records (text written at once, or
  /// deferred to the end of "chunks" of seven offers), or as values.
  enum Path: CaseIterable { case record, deferred, member }

  static func kept(_ candidates: [Candidate], limit: Int, ring: Bool, path: Path) -> MemberHeap {
    var heap = MemberHeap(limit: limit, ring: ring)
    // Deferred text points into these records until `writePendingText()`;
    // then they are overwritten and freed, as a chunk's bytes are reused.
    var chunk: [UnsafeMutableBufferPointer<UInt8>] = []
    func endChunk() {
      heap.writePendingText()
      for record in chunk {
        record.update(repeating: UInt8(ascii: "#"))
        record.deallocate()
      }
      chunk.removeAll()
    }
    for candidate in candidates {
      switch path {
      case .member:
        heap.offer(candidate.member)
      case .record, .deferred:
        let record = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: candidate.record.count + 8)
        _ = record.initialize(from: candidate.record + Array("EUR".utf8) + [0, 0, 0, 0, 0])
        let code = UnsafeBufferPointer(rebasing: record[candidate.record.count..<candidate.record.count + 3])
        heap.offer(
          instant: candidate.member.instant, amount: candidate.member.amount, id: candidate.id, currency: code,
          description: candidate.description, record: UnsafeBufferPointer(record), deferringText: path == .deferred)
        chunk.append(record)
        if path == .record || chunk.count == 7 { endChunk() }
      }
      // Every offer leaves the ring or heap, its slots and its arena sound (pending text included).
      heap.checkInvariants()
    }
    endChunk()
    heap.checkInvariants()
    return heap
  }

  @Test(
    "Any arrival order and either layout keep the first N in report order",
    arguments: [1, 2, 3, 7, 20, 32, 33, 200, Int.max])
  func firstInReportOrder(limit: Int) {
    for seed: UInt64 in 1...6 {
      let candidates = Self.candidates(seed: seed, count: 150)
      let expected = Self.expected(candidates, limit: limit)
      var random = SplitMix64(seed: seed &+ 100)
      let sortedAscending = Array(candidates.sorted { $0.member.compareReportOrder($1.member) > 0 })
      let orders: [(String, [Candidate])] = [
        ("as generated", candidates), ("oldest first", sortedAscending),
        ("newest first", sortedAscending.reversed()), ("shuffled", random.shuffled(candidates)),
      ]
      for (name, order) in orders {
        for ring in [true, false] {
          for path in Path.allCases {
            let heap = Self.kept(order, limit: limit, ring: ring, path: path)
            #expect(
              heap.sorted() == expected,
              "seed \(seed), limit \(limit), \(name), \(ring ? "ring" : "heap"), \(path) path")
            #expect(heap.last == expected.last)
            #expect(heap.groupMembers() == expected.map(\.groupMember))
            #expect(heap.count == min(limit, candidates.count))
          }
        }
      }
    }
  }

  @Test(
    "Members taken out by their equals in another heap leave the first N of the rest, in report order",
    arguments: [1, 3, 20, 40, Int.max])
  func keepingWithout(limit: Int) {
    for seed: UInt64 in 1...6 {
      let candidates = Self.candidates(seed: seed, count: 90)
      var random = SplitMix64(seed: seed &+ 200)
      let shuffled = random.shuffled(candidates)
      // Some members again (duplicates among them), and one that `all` does not hold.
      var leaving = (0..<20).map { _ in candidates[random.next(below: candidates.count)] }
      leaving.append(Self.candidate(time: "2019-05-17T10:00:00Z", id: "absent", amount: "1", description: nil))
      for ring in [true, false] {
        // A ring of more than `ringLimit` is made only here; either layout holds the members alike.
        let all = Self.kept(shuffled, limit: .max, ring: !ring, path: .deferred)
        let losers = Self.kept(leaving, limit: .max, ring: ring, path: .record)
        let kept = all.keeping(all.reportOrder(leavingOutMembersOf: losers), limit: limit)
        kept.checkInvariants()
        // By values: each leaving member takes one of its equals out, when there is one left.
        var expected = candidates.map(\.member).sorted { $0.compareReportOrder($1) < 0 }
        for member in leaving.map(\.member) {
          if let found = expected.firstIndex(of: member) { expected.remove(at: found) }
        }
        #expect(kept.sorted() == Array(expected.prefix(limit)), "seed \(seed), limit \(limit)")
        #expect(kept.limit == limit)
      }
    }
  }

  @Test("Deferred text is pending until written, and only in a ring")
  func deferredText() {
    let members = Self.candidates(seed: 9, count: 40)
    var ring = MemberHeap(limit: 5, ring: true)
    var heap = MemberHeap(limit: 5, ring: false)
    let currency = Array("EUR".utf8)
    for candidate in members.prefix(3) {
      candidate.record.withUnsafeBufferPointer { record in
        currency.withUnsafeBufferPointer { code in
          for index in 0..<2 {
            let offered = candidate.member
            if index == 0 {
              ring.offer(
                instant: offered.instant, amount: offered.amount, id: candidate.id, currency: code,
                description: candidate.description, record: record, deferringText: true)
            } else {
              heap.offer(
                instant: offered.instant, amount: offered.amount, id: candidate.id, currency: code,
                description: candidate.description, record: record, deferringText: true)
            }
          }
        }
      }
    }
    #expect(ring.hasPendingText)
    #expect(!heap.hasPendingText)
    ring.writePendingText()
    #expect(!ring.hasPendingText)
    #expect(ring.slots.allSatisfy { $0.pendingText == nil })
    #expect(ring.sorted() == heap.sorted())
    #expect(ring.sorted() == Self.expected(Array(members.prefix(3)), limit: 5))
  }

  @Test("The default layout is a ring up to ringLimit members, then a heap")
  func layoutByLimit() {
    #expect(MemberHeap(limit: 20).isRing)
    #expect(MemberHeap(limit: MemberHeap.ringLimit).isRing)
    #expect(!MemberHeap(limit: MemberHeap.ringLimit + 1).isRing)
    #expect(!MemberHeap(limit: Int.max).isRing)
  }

  @Test("Ties on the instant: id ascending, then the written form; duplicates are each kept")
  func ties() {
    let same = "2019-05-17T10:00:00"
    let members = [
      Self.candidate(time: same + "Z", id: "b", amount: "1", description: nil),
      Self.candidate(time: same + "+00:00", id: "a", amount: "1", description: nil),
      Self.candidate(time: same + "Z", id: "a", amount: "1", description: nil),
      Self.candidate(time: "2019-05-17T09:00:00Z", id: "a", amount: "1", description: nil),
      Self.candidate(time: same + "Z", id: "a", amount: "1", description: nil),
    ]
    for ring in [true, false] {
      for path in Path.allCases {
        let heap = Self.kept(members, limit: 3, ring: ring, path: path)
        let kept = heap.sorted()
        // The three "a" at 10:00 (two of them the same member) come before "b".
        #expect(kept.map { String(decoding: $0.id, as: UTF8.self) } == ["a", "a", "a"])
        #expect(kept == Self.expected(members, limit: 3))
        #expect(Set(kept.map(\.instant.style)).count == 2)
      }
    }
  }

  @Test("A limit of 1 keeps the most recent; a later tie with a smaller id replaces it")
  func limitOne() {
    let members = [
      Self.candidate(time: "2019-05-17T10:00:00Z", id: "m", amount: "1", description: "x"),
      Self.candidate(time: "2019-05-17T12:00:00Z", id: "z", amount: "1", description: "x"),
      Self.candidate(time: "2019-05-17T11:00:00Z", id: "a", amount: "1", description: "x"),
      Self.candidate(time: "2019-05-17T12:00:00Z", id: "b", amount: "1", description: nil),
    ]
    for ring in [true, false] {
      for path in Path.allCases {
        let heap = Self.kept(members, limit: 1, ring: ring, path: path)
        #expect(heap.sorted().map { String(decoding: $0.id, as: UTF8.self) } == ["b"])
        #expect(heap.sorted()[0].description == nil)
      }
    }
  }

  @Test("A ring that wraps around keeps its order through later in-order and out-of-order offers")
  func ringWraps() {
    // Minutes 0...59 in order, then every minute again one second later in reverse.
    var members = (0..<60).map {
      Self.candidate(time: String(format: "2019-05-17T10:%02d:00Z", $0), id: "i\($0)", amount: "1", description: nil)
    }
    members += (0..<60).reversed().map {
      Self.candidate(time: String(format: "2019-05-17T10:%02d:01Z", $0), id: "j\($0)", amount: "1", description: nil)
    }
    for limit in [5, 20] {
      let heap = Self.kept(members, limit: limit, ring: true, path: .record)
      #expect(heap.sorted() == Self.expected(members, limit: limit))
    }
  }

  /// A per-account fold holds millions of groups, most with one or two
  /// members: a group reserves room for the members it holds, not its limit.
  @Test("A group's room grows with the members it keeps, never past its limit")
  func roomFollowsMembers() {
    var heap = MemberHeap(limit: 20)
    heap.offer(Self.candidate(time: "2024-05-01T10:00:00", id: "a", amount: "1.00", description: "coffee").member)
    #expect(heap.memberCapacity == 1)
    #expect(heap.textCapacity <= 64)
    let before = heap.textCapacity
    for index in 0..<200 {
      let time = "2024-05-01T10:\(String(format: "%02d", index % 60)):\(String(format: "%02d", index / 60))"
      heap.offer(Self.candidate(time: time, id: "m\(index)", amount: "2.00", description: "tea").member)
    }
    #expect(heap.entries.count == 20)
    // Full: one slot per kept member and the spare, and no more (doubling past the limit would give 32).
    #expect(heap.slots.count == 21)
    #expect(heap.memberCapacity == 21)
    #expect(heap.textCapacity > before)
    heap.checkInvariants()
  }

  /// Most groups of a per-account fold keep one member: its entry, slot and
  /// text take one block, which the first record's member sizes, deferred
  /// text included.
  @Test("A group's first member, its text deferred or not, takes one block that its text fits")
  func firstMemberOneBlock() {
    let member = Self.candidate(
      time: "2024-05-01T10:00:00", id: "7c2ab5bc-237e-4c57-812f-3e2c032f09e5", amount: "1.00",
      description: "Standing Order")
    for path in Path.allCases {
      let heap = Self.kept([member], limit: 20, ring: true, path: path)
      #expect(heap.memberCapacity == 1)
      // A block grown for the text would have twice the first room at least.
      #expect(heap.text.count == heap.textCapacity)
      #expect(heap.sorted() == [member.member])
    }
  }

  /// A block is freed without deinitializing its regions, and grows by
  /// copying their bytes: what it holds must own nothing.
  @Test("A block's entries, slots and text are plain values")
  func blockHoldsPlainValues() {
    #expect(_isPOD(MemberHeap.Entry.self))
    #expect(_isPOD(MemberHeap.Slot.self))
    #expect(MemoryLayout<MemberHeap.Slot>.alignment <= MemoryLayout<UInt64>.alignment)
    #expect(MemoryLayout<MemberHeap.Entry>.alignment <= MemoryLayout<UInt64>.alignment)
  }

  /// The heap is a value: a copy shares the block until either changes.
  @Test("A copy of a heap keeps its members when the original changes, and the other way round")
  func copiesShareUntilChanged() {
    var heap = MemberHeap(limit: 3)
    let members = (0..<6).map {
      Self.candidate(time: "2024-05-01T10:0\($0):00", id: "m\($0)", amount: "1.00", description: "d\($0)")
    }
    for member in members.prefix(3) { heap.offer(member.member) }
    let copy = heap
    for member in members.suffix(3) { heap.offer(member.member) }
    heap.checkInvariants()
    copy.checkInvariants()
    #expect(copy.sorted() == Self.expected(Array(members.prefix(3)), limit: 3))
    #expect(heap.sorted() == Self.expected(members, limit: 3))
    var second = heap
    second.removeAllKeepingRoom()
    #expect(second.count == 0)
    #expect(heap.sorted() == Self.expected(members, limit: 3))
  }
}

extension SplitMix64 {
  /// A Fisher–Yates shuffle driven by this generator, so failures reproduce.
  mutating func shuffled<T>(_ values: [T]) -> [T] {
    var values = values
    guard values.count > 1 else { return values }
    for index in stride(from: values.count - 1, to: 0, by: -1) {
      values.swapAt(index, next(below: index + 1))
    }
    return values
  }
}
