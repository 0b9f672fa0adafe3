/// A small run of raw memory that a writer fills with plain copies and
/// appends to its buffer in one go: appending to an array costs a
/// uniqueness and capacity check and a call per piece, which was most of
/// writing a kept member (a dozen pieces each).
///
/// The memory is the caller's (`withUnsafeTemporaryAllocation`, on its own
/// thread's stack). Every `write` must fit: the caller checks `room` first.
struct ByteScratch {
  private let memory: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
    self.memory = memory
  }

  /// Bytes that can still be written.
  var room: Int { memory.count - count }

  /// Copies `bytes`; they must fit in `room`.
  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count <= room, "a write past the scratch memory")
    guard let target = memory.baseAddress, let source = bytes.baseAddress, !bytes.isEmpty else { return }
    UnsafeMutableRawPointer(target + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(bytes)) }

  mutating func write(_ literal: StaticString) {
    write(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  mutating func write(_ byte: UInt8) {
    precondition(room >= 1, "a write past the scratch memory")
    memory[count] = byte
    count += 1
  }

  /// Appends what was written to `out` and starts again.
  mutating func move(to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(rebasing: memory[0..<count]))
    count = 0
  }
}

extension ByteScratch {
  /// The room `write(_:)` of a day or a timestamp, and `writeDecimal(_:)`, may
  /// take at most: a timestamp with a nine-digit fraction and an offset is 35
  /// bytes, and any value built by hand (a year past 9999) stays below 64.
  static let fieldRoom = 64

  /// Makes sure `count` bytes fit, appending what was written to `out` first
  /// when they do not.
  mutating func makeRoom(_ count: Int, flushingTo out: inout [UInt8]) {
    if count > room { move(to: &out) }
  }

  /// Copies `bytes`, through `out` when they do not fit: the few strings of
  /// unbounded length (a state or currency as the input wrote it).
  mutating func write(_ bytes: [UInt8], flushingTo out: inout [UInt8]) {
    makeRoom(bytes.count, flushingTo: &out)
    if bytes.count > room {
      out.append(contentsOf: bytes)
    } else {
      bytes.withUnsafeBufferPointer { write($0) }
    }
  }

  /// Lets `body` write at most `limit` bytes at the end (`limit` within
  /// `room`); `body` returns how many it wrote.
  private mutating func writeInPlace(limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    precondition(limit <= room, "a write past the scratch memory")
    guard let base = memory.baseAddress else { return }
    let written = body(base + count)
    precondition(written <= limit, "a write past its limit")
    count += written
  }

  /// Writes `value` in decimal digits, as `[UInt8].appendDecimal` does (at most 20 bytes).
  mutating func writeDecimal(_ value: Int) {
    writeInPlace(limit: 20) { target in
      var magnitude = value.magnitude
      var digits = 0
      var probe = magnitude
      repeat {
        digits += 1
        probe /= 10
      } while probe > 0
      let sign = value < 0 ? 1 : 0
      if sign == 1 { target[0] = .minus }
      var at = sign + digits
      repeat {
        at -= 1
        target[at] = .zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      return sign + digits
    }
  }

  /// Writes two digits as `Timestamp.appendText` does: the tens and the units.
  @inline(__always)
  private static func putTwoDigits(_ value: UInt8, at target: UnsafeMutablePointer<UInt8>) {
    target[0] = .zero &+ value / 10
    target[1] = .zero &+ value % 10
  }

  /// Writes a year of four digits (0 to 9999).
  @inline(__always)
  private static func putYear(_ year: Int, at target: UnsafeMutablePointer<UInt8>) {
    target[0] = .zero &+ UInt8(truncatingIfNeeded: year / 1000)
    target[1] = .zero &+ UInt8(truncatingIfNeeded: year / 100 % 10)
    target[2] = .zero &+ UInt8(truncatingIfNeeded: year / 10 % 10)
    target[3] = .zero &+ UInt8(truncatingIfNeeded: year % 10)
  }

  /// Writes `YYYY-MM-DD`, the bytes `CalendarDay.appendText` appends
  /// (`fieldRoom` must fit).
  mutating func write(_ day: CalendarDay) {
    let (year, month, dayOfMonth) = day.components
    guard (0...9999).contains(year) else {
      // Only a day built by hand: the expanded form, through an array.
      var text: [UInt8] = []
      day.appendText(to: &text)
      text.withUnsafeBufferPointer { write($0) }
      return
    }
    writeInPlace(limit: 10) { target in
      Self.putYear(year, at: target)
      target[4] = .minus
      Self.putTwoDigits(UInt8(truncatingIfNeeded: month), at: target + 5)
      target[7] = .minus
      Self.putTwoDigits(UInt8(truncatingIfNeeded: dayOfMonth), at: target + 8)
      return 10
    }
  }

  /// Writes the timestamp exactly as written, the bytes
  /// `Timestamp.appendText` appends (`fieldRoom` must fit).
  mutating func write(_ timestamp: Timestamp) {
    guard (0...9999).contains(timestamp.year), timestamp.fractionDigits <= 9, timestamp.offsetMinutes.magnitude < 6_000
    else {
      // Only a timestamp built by hand: through an array.
      var text: [UInt8] = []
      timestamp.appendText(to: &text)
      text.withUnsafeBufferPointer { write($0) }
      return
    }
    writeInPlace(limit: 35) { target in
      Self.putYear(Int(timestamp.year), at: target)
      target[4] = .minus
      Self.putTwoDigits(timestamp.month, at: target + 5)
      target[7] = .minus
      Self.putTwoDigits(timestamp.day, at: target + 8)
      if timestamp.style == .dateOnly { return 10 }
      target[10] = .upperT
      Self.putTwoDigits(timestamp.hour, at: target + 11)
      target[13] = .colon
      Self.putTwoDigits(timestamp.minute, at: target + 14)
      target[16] = .colon
      Self.putTwoDigits(timestamp.second, at: target + 17)
      var at = 19
      if timestamp.fractionDigits > 0 {
        target[at] = .dot
        at += 1
        var divisor: UInt32 = 100_000_000
        for _ in 0..<timestamp.fractionDigits {
          target[at] = .zero &+ UInt8(truncatingIfNeeded: timestamp.nanosecond / divisor % 10)
          at += 1
          divisor /= 10
        }
      }
      switch timestamp.style {
      case .dateOnly, .none: break
      case .zulu:
        target[at] = .upperZ
        at += 1
      case .colon, .compact:
        target[at] = timestamp.offsetNegative ? .minus : .plus
        let minutes = Int(timestamp.offsetMinutes.magnitude)
        Self.putTwoDigits(UInt8(truncatingIfNeeded: minutes / 60), at: target + at + 1)
        at += 3
        if timestamp.style == .colon {
          target[at] = .colon
          at += 1
        }
        Self.putTwoDigits(UInt8(truncatingIfNeeded: minutes % 60), at: target + at)
        at += 2
      }
      return at
    }
  }

  /// Writes the amount's canonical machine text, the bytes
  /// `ExactDecimal.appendText(to:)` appends; through `out` for the rare
  /// amount past a word (its text may be longer than `fieldRoom`).
  mutating func write(_ amount: ExactDecimal, flushingTo out: inout [UInt8]) {
    makeRoom(ExactDecimal.canonicalTextLimit, flushingTo: &out)
    let written: Void? = amount.withCanonicalText { write($0) }
    if written == nil {
      var text: [UInt8] = []
      amount.appendText(to: &text)
      write(text, flushingTo: &out)
    }
  }
}
