import CJSONIndex
import Testing

@testable import TxFold
@testable import TxFoldGen

/// The document walker's vector skim (`txfold_json_skim`) frames exactly as its byte loop does,
/// with every kernel, on random and hostile arrays, cut into buffers at every size.
@Suite("Skim kernels frame as the byte loop")
struct SkimKernelFramingTests {
  /// The byte loop alone (-1) and every kernel (one the CPU lacks runs as the best it has).
  static let kernels: [Int32] = [
    -1, Int32(TXFOLD_JSON_INDEX_KERNEL_PORTABLE), Int32(TXFOLD_JSON_INDEX_KERNEL_SSE2),
    Int32(TXFOLD_JSON_INDEX_KERNEL_AVX2), Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512),
    Int32(TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2), Int32(TXFOLD_JSON_INDEX_KERNEL_NEON),
  ]

  /// What a walk over `document` gives: every span and the walker's counters.
  struct Walked: Equatable {
    var spans: [RecordSpan]
    var line: Int
    var errors: Int
    var position: Int
  }

  /// Walks `document` with `kernel`, the buffer growing by `step` bytes per call (a record cut
  /// across buffers at every byte), then finishes.
  static func walk(_ document: [UInt8], kernel: Int32, step: Int, itemsPath: [[UInt8]]? = nil) -> Walked {
    var walker = DocumentWalker(
      itemsPath: itemsPath, allowTrailingCommas: false, maxRecordBytes: 1 << 20, skimKernel: kernel)
    let spans = walker.walkAll(document, step: step)
    return Walked(spans: spans, line: walker.line, errors: walker.errors, position: walker.position)
  }

  /// Checks that every kernel and buffer step frames `document` as the byte loop does in one buffer.
  static func expectSameFraming(_ document: [UInt8], steps: [Int], itemsPath: [[UInt8]]? = nil) {
    let reference = walk(document, kernel: -1, step: .max, itemsPath: itemsPath)
    for kernel in kernels {
      for step in steps {
        let walked = walk(document, kernel: kernel, step: step, itemsPath: itemsPath)
        #expect(
          walked == reference,
          "kernel \(kernel), step \(step): \(String(decoding: document.prefix(300), as: UTF8.self))")
        if walked != reference { return }
      }
    }
  }

  /// A random JSON value, `depth` levels deep at most, with long strings, escapes, non-ASCII
  /// text, scalars and whitespace (tabs, carriage returns and line ends when `lines`).
  static func value(_ rng: inout SplitMix64, depth: Int, lines: Bool) -> String {
    func space() -> String {
      let choices = lines ? ["", "", " ", "\t", "\r\n  ", "\n    ", "  "] : ["", "", "", " ", "\t", "  "]
      return choices[Int(rng.next() % UInt64(choices.count))]
    }
    func string() -> String {
      let pieces = [
        "a", "Café", "\\\"", "\\\\", "\\n", "\\u00e9", "]", "}", "{", "[", ",", ":", "x y", "€", "0123456789",
        String(repeating: "z", count: 70), "\\\\\\\"",
      ]
      let count = Int(rng.next() % 6)
      return "\"" + (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() + "\""
    }
    let kind = depth <= 0 ? Int(rng.next() % 3) : Int(rng.next() % 6)
    switch kind {
    case 0: return string()
    case 1:
      let scalars = ["12", "-0.5e3", "true", "false", "null", "123456789012345678901234567890", "0"]
      return scalars[Int(rng.next() % UInt64(scalars.count))]
    case 2: return string()
    case 3, 4:
      let count = Int(rng.next() % 5)
      let members = (0..<count).map { _ in
        space() + string() + space() + ":" + space() + value(&rng, depth: depth - 1, lines: lines) + space()
      }
      return "{" + members.joined(separator: ",") + "}"
    default:
      let count = Int(rng.next() % 4)
      let elements = (0..<count).map { _ in space() + value(&rng, depth: depth - 1, lines: lines) + space() }
      return "[" + elements.joined(separator: ",") + "]"
    }
  }

  /// A random array of records: objects mostly, on one line or one element a line.
  static func document(_ rng: inout SplitMix64, lines: Bool, wrapped: Bool) -> [UInt8] {
    let count = Int(rng.next() % 6) + 1
    let separator = lines ? ",\n  " : ","
    let elements = (0..<count).map { _ -> String in
      let record = value(&rng, depth: 4, lines: lines)
      return record.hasPrefix("{") || rng.next() % 4 == 0 ? record : "{\"k\":" + record + "}"
    }
    let array = "[" + (lines ? "\n  " : "") + elements.joined(separator: separator) + (lines ? "\n" : "") + "]"
    return Array((wrapped ? "{\"items\":" + array + ",\"n\":1}" : array).utf8)
  }

  /// `document` damaged at a few random places with the bytes framing is most sensitive to.
  static func damaged(_ document: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
    let hostile: [UInt8] = Array("\"\\{}[],:\n\t\r x1".utf8) + [0x01, 0x00, 0xC3, 0xEF, 0xBB, 0xBF]
    var bytes = document
    for _ in 0..<Int(rng.next() % 3) + 1 {
      let at = Int(rng.next() % UInt64(bytes.count + 1))
      let byte = hostile[Int(rng.next() % UInt64(hostile.count))]
      switch rng.next() % 3 {
      case 0: bytes.insert(byte, at: at)
      case 1: if at < bytes.count { bytes.remove(at: at) }
      default: if at < bytes.count { bytes[at] = byte }
      }
    }
    return bytes
  }

  @Test("Random well-formed arrays, on one line and over lines, plain and wrapped")
  func randomArrays() {
    var rng = SplitMix64(seed: 41)
    for round in 0..<160 {
      let document = Self.document(&rng, lines: round % 2 == 1, wrapped: round % 4 >= 2)
      Self.expectSameFraming(document, steps: [.max, 1, 3, 64, 65, Int(rng.next() % 200) + 2])
    }
  }

  @Test("Random arrays damaged with quotes, backslashes, brackets, control bytes and line ends")
  func hostileArrays() {
    var rng = SplitMix64(seed: 4141)
    for round in 0..<400 {
      let document = Self.damaged(Self.document(&rng, lines: round % 3 == 0, wrapped: round % 5 == 0), &rng)
      Self.expectSameFraming(document, steps: [.max, 1, 63, Int(rng.next() % 150) + 2])
    }
  }

  @Test(
    "Hand-written edge cases: a backslash outside strings, a string or scalar cut at a block's edge, deep nesting",
    arguments: [
      #"[{"a":x\"y","b":1},{"c":2}]"#,
      #"[{"a":1\ ,"b":[1,2]},{"c":2}]"#,
      "[{\"a\":\"" + String(repeating: "q", count: 62) + "\\\"\",\"b\":{}},{\"c\":[]}]",
      "[{\"a\":\"" + String(repeating: "q", count: 61) + "\\\\\",\"b\":{}},{\"c\":[]}]",
      "[{\"a\":" + String(repeating: "7", count: 130) + ",\"b\":[{}]},{\"c\":2}]",
      "[{\"a\":\"tab\there\",\"b\":1},{\"c\":2}]",
      "[{\"a\":[" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "]},{\"c\":2}]",
      "[{\"a\":{\"b\":[1,2}]},{\"c\":2}]",
      "[{\"a\":1}}, {\"b\":2}]",
      "[{\"a\" \"b\"},{\"c\":2}]",
      "[{\"a\":\r\n1\t,\"b\":\"x\"},\r\n{\"c\":2}]",
      "[{\"a\":\"line\nend\"},{\"c\":2}]",
    ])
  func edgeCases(text: String) {
    Self.expectSameFraming(Array(text.utf8), steps: Array(1...70) + [.max])
  }
}
