/// Gives each distinct byte string (a state, a currency code) a small number,
/// so the group table keys and sums on integers instead of strings.
///
/// Real dumps have a handful of states and currencies: look-ups compare
/// against the few known strings directly; past 16 of them a hash index takes
/// over so hostile input with many distinct values stays linear.
public final class ByteStringInterner {
  /// The strings, by number.
  public private(set) var strings: [[UInt8]] = []
  /// Hash → numbers with that hash, used once there are many strings.
  private var hashed: [UInt64: [Int]] = [:]
  /// Whether strings are upper-cased (ASCII) when interned and matched.
  public let upperCasing: Bool
  @usableFromInline static let linearLimit = 16

  public init(upperCasing: Bool) {
    self.upperCasing = upperCasing
  }

  /// The number of distinct strings.
  @inlinable public var count: Int { strings.count }

  /// The number for `bytes`, adding it when new.
  @inlinable
  public func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if strings.count <= Self.linearLimit {
      for index in strings.indices where matches(strings[index], bytes) { return index }
      return add(bytes)
    }
    return lookUpHashed(bytes)
  }

  /// The number for a string already in canonical form.
  public func intern(_ string: [UInt8]) -> Int {
    string.withUnsafeBufferPointer { intern($0) }
  }

  @inlinable
  func matches(_ known: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard known.count == bytes.count else { return false }
    if upperCasing {
      for index in 0..<bytes.count where known[index] != Self.upper(bytes[index]) { return false }
      return true
    }
    for index in 0..<bytes.count where known[index] != bytes[index] { return false }
    return true
  }

  @inlinable @inline(__always)
  static func upper(_ byte: UInt8) -> UInt8 {
    byte &- .lowerA < 26 ? byte &- 32 : byte
  }

  @usableFromInline
  func add(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let stored = upperCasing ? bytes.map(Self.upper) : Array(bytes)
    strings.append(stored)
    let number = strings.count - 1
    if strings.count > Self.linearLimit {
      if hashed.isEmpty {
        for (index, string) in strings.enumerated() { hashed[Self.hash(string), default: []].append(index) }
      } else {
        hashed[Self.hash(stored), default: []].append(number)
      }
    }
    return number
  }

  @usableFromInline
  func lookUpHashed(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let canonical = upperCasing ? bytes.map(Self.upper) : Array(bytes)
    if let candidates = hashed[Self.hash(canonical)] {
      for index in candidates where strings[index] == canonical { return index }
    }
    return canonical.withUnsafeBufferPointer { add($0) }
  }

  /// FNV-1a: stable across runs, unlike `Hasher`, which keeps runs reproducible.
  static func hash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }
}
