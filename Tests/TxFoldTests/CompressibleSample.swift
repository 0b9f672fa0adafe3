/// JSON-lines-looking text with pseudo-random runs, so deflate makes several kinds of block
/// and the input is not all one pattern: the gzip tests' sample content.
enum CompressibleSample {
  /// `count` bytes of lines `{"id":"N","amount":"…","note":"<letters>"}`, the note's length
  /// cycling with `noteCycle`, its letters from an xorshift generator started at `state`.
  static func bytes(count: Int, state initialState: UInt64, noteCycle: Int) -> [UInt8] {
    var state = initialState
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    var line = 0
    while bytes.count < count {
      line += 1
      bytes += Array(#"{"id":"\#(line)","amount":"\#(line % 997).\#(line % 100)","note":""#.utf8)
      for _ in 0..<(line % noteCycle) {
        // xorshift: fixed, so a failure can be reproduced.
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes.append(UInt8(truncatingIfNeeded: state % 26) + 0x61)
      }
      bytes += Array("\"}\n".utf8)
    }
    return Array(bytes.prefix(count))
  }
}
