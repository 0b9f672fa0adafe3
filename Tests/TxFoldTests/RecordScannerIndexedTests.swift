import CJSONIndex
import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// The token-index fast path against the byte state machine: on every record —
/// valid, mutated, or built to sit on a 64-byte block boundary — both must give
/// the same verdict, reason, offset and slots, on every kernel this CPU runs.
@Suite("Record scanner: token index")
struct RecordScannerIndexedTests {
  /// The kernels this CPU runs as themselves.
  static let kernels = RecordScanner.Kernel.allCases.filter {
    $0 != .byteAtATime && $0 != .best && RecordScanner.supports($0)
  }

  /// Every schema's keys at once, so nested and unwanted keys both occur.
  static let trie: FieldTrie = {
    var trie = FieldTrie()
    for schema in RecordSchema.builtIn {
      for path in schema.trie.slotNames where !trie.slotNames.contains(path) { trie.add(path: path) }
    }
    trie.add(path: "x.y")
    trie.add(path: "a")
    return trie
  }()

  /// The outcome of scanning `record`: the failure, or the slots.
  static func outcome(_ scanner: RecordScanner, _ record: [UInt8]) -> String {
    record.withUnsafeBufferPointer { buffer in
      if let failure = scanner.scan(buffer) { return "\(failure.reason) at \(failure.offset)" }
      return (0..<scanner.trie.slotCount).map { "\(scanner.value($0))" }.joined(separator: ";")
    }
  }

  /// Valid records: generated ones, the committed corpus, and hand-made edge cases.
  static let validRecords: [[UInt8]] = {
    var records: [[UInt8]] = []
    var generated: [UInt8] = []
    TransactionGenerator(options: GeneratorOptions(count: 300, seed: 11)).generate { chunk in
      generated += chunk
      chunk.removeAll()
    }
    records += generated.split(separator: UInt8.newline).map(Array.init)
    // The corpus's blank lines (skipped by framing, never scanned) left out.
    records += Fixtures.bytes("corpus.jsonl").split(separator: UInt8.newline).map(Array.init)
      .filter { !$0.allSatisfy(\.isJSONWhitespace) }
    let handMade = [
      #"{}"#, #" { } "#, #"{"a":1}"#, #"{"a":-0.5e+10,"b":true,"c":false,"d":null}"#,
      #"{"x":{"y":"z"},"a":[1,[2,[3,{"x":{"y":4}}]],"\"q\\"]}"#, #"{"a":"\\\\\\\"","b":"\u00e9\ud83d\ude00"}"#,
      "{\"a\"\t:\r\n\"b\" , \"c\" : [ ] , \"d\" : { } }", #"{"id":"é","description":"日本語 テキスト"}"#,
      #"{"a":"","":"","x":{}}"#, #"{"a":0,"b":[0,-0,1E5,1.25]}"#,
      #"{"a":"\b\f\n\r\t\/\\\"€😀ß\u20AC","é\\😀":"\u0000 ü"}"#,
    ]
    records += handMade.map { Array($0.utf8) }
    // Escapes, quotes and non-ASCII bytes at every position around a block boundary.
    for padding in 52..<70 {
      for tail in [#"\""#, #"\\"#, #"\\\""#, "é", #"\u0041"#, #"\n"#] {
        let filler = String(repeating: "p", count: padding)
        records.append(Array(#"{"a":"\#(filler)\#(tail)","id":"\#(tail)\#(filler)"}"#.utf8))
      }
    }
    return records
  }()

  @Test("The fast path accepts valid records itself, with the byte scanner's slots")
  func validRecordsTakeTheFastPath() {
    let reference = RecordScanner(trie: Self.trie, kernel: .byteAtATime)
    for kernel in Self.kernels {
      let scanner = RecordScanner(trie: Self.trie, kernel: kernel)
      for record in Self.validRecords {
        let expected = Self.outcome(reference, record)
        #expect(!expected.contains(" at "), "\(String(decoding: record, as: UTF8.self))")
        let decidedFast = record.withUnsafeBufferPointer { buffer in
          // Safe because the buffer is not empty (every record has at least `{}`).
          scanner.scanIndexed(buffer.baseAddress!, buffer.count)
        }
        #expect(decidedFast, "\(kernel) fell back on \(String(decoding: record, as: UTF8.self))")
        #expect(Self.outcome(scanner, record) == expected, "\(kernel): \(String(decoding: record, as: UTF8.self))")
      }
    }
  }

  @Test("The 32-byte key comparison sees every byte below the length and none above it")
  func equalPrefix32() {
    let stored = (0..<32).map { UInt8(0x41 + $0) }
    for length in 0...32 {
      for position in 0..<32 {
        var key = stored
        key[position] ^= 0x20
        let equal = key.withUnsafeBytes { keyBytes in
          stored.withUnsafeBytes { storedBytes in
            // Safe because both buffers hold 32 bytes.
            txfold_equal_prefix32(keyBytes.baseAddress!, storedBytes.baseAddress!, length)
          }
        }
        #expect((equal != 0) == (position >= length), "length \(length), difference at \(position)")
      }
    }
  }

  @Test(
    "Keys that share a length, long keys and keys near the record's end match as the byte scanner and the row's list match them"
  )
  func keyLookUpAgrees() {
    let long31 = String(repeating: "k", count: 30) + "1"
    let long32 = String(repeating: "k", count: 31) + "2"
    let long33 = String(repeating: "k", count: 32) + "3"
    let long40 = String(repeating: "k", count: 39) + "4"
    var trie = FieldTrie()
    var slots: [String: Int] = [:]
    // "ab" and "bb" share the 2-byte row (the row's first key is compared inline, the other
    // through the row's list); "ab" also comes nested, under a node of its own.
    for path in ["ab", "bb", "n.ab", "n.cd", long31, long32, long33, long40, "\(long32)x"] {
      slots[path] = trie.add(path: path)
    }
    let scanner = RecordScanner(trie: trie, kernel: .best)
    let reference = RecordScanner(trie: trie, kernel: .byteAtATime)
    let keys = ["ab", "bb", "ba", "abc", "n", long31, long32, long33, long40, "\(long32)x", "\(long32)y", "k"]
    var checked = 0
    for (index, key) in keys.enumerated() {
      // The key first (far from the end), last (its 32 bytes run past the record), and nested.
      for record in [
        #"{"\#(key)":\#(index),"zz":"\#(String(repeating: "z", count: 40))"}"#,
        #"{"zz":0,"\#(key)":\#(index)}"#,
        #"{"n":{"\#(key)":"\#(index)","cd":[1]},"ab":"last"}"#,
      ] {
        let bytes = Array(record.utf8)
        let expected = Self.outcome(reference, bytes)
        #expect(!expected.contains(" at "), "\(record)")
        #expect(Self.outcome(scanner, bytes) == expected, "\(record)")
        checked += 1
      }
    }
    // The look-up itself, not only agreement: "bb" (second in its row) and the 32-byte key.
    let record = Array(#"{"bb":7,"\#(long32)":"v","n":{"ab":true}}"#.utf8)
    _ = Self.outcome(scanner, record)
    #expect(scanner.value(slots["bb"] ?? -1) == ValueRef(start: 6, end: 7, kind: .number))
    #expect(scanner.value(slots[long32] ?? -1) == ValueRef(start: 44, end: 45, kind: .string))
    #expect(scanner.value(slots["n.ab"] ?? -1).kind == .trueValue)
    #expect(scanner.value(slots["ab"] ?? -1) == .absent)
    #expect(checked == keys.count * 3)
    // Both scanners look keys up through the inline first key: against the row's list alone,
    // in both nodes, with 32 bytes readable and with only the key's own.
    for key in keys {
      let padded = Array(key.utf8) + Array(repeating: UInt8(ascii: "\""), count: 32)
      padded.withUnsafeBufferPointer { buffer in
        // Safe because the buffer holds the key and 32 bytes more.
        let base = buffer.baseAddress!
        for node in 0..<trie.nodes.count {
          let listed = scanner.matchListedKey(node: node, base, key.utf8.count)
          for readable in [key.utf8.count, key.utf8.count + 32] {
            let found = scanner.matchPlainKey(node: node, base, key.utf8.count, readable: readable)
            #expect(found == listed, "\(key) in node \(node), \(readable) readable")
          }
        }
      }
    }
  }

  @Test("Every prefix of a record ends where the byte scanner ends it: the key path's last token is its sentinel")
  func everyPrefixAgrees() {
    // Records cut after each of their bytes end the key path at a key, its colon, a string
    // value, a comma or nothing, where it reads the sentinel past the last token instead of
    // checking the count.
    let reference = RecordScanner(trie: Self.trie, kernel: .byteAtATime)
    let referenceTrailing = RecordScanner(trie: Self.trie, allowTrailingCommas: true, kernel: .byteAtATime)
    let records =
      [
        #"{"a":"b","id":"7","x":{"y":"z","q":"r"},"description":"d\u00e9é","n":1}"#,
        #"{"x":{"y":"z",},"a":"b",}"#, #"{"a":{"b":{"c":"d"}},"e":"f"}"#,
      ].map { Array($0.utf8) } + Self.validRecords.prefix(3)
    var cut = 0
    for kernel in Self.kernels {
      let scanner = RecordScanner(trie: Self.trie, kernel: kernel)
      let trailing = RecordScanner(trie: Self.trie, allowTrailingCommas: true, kernel: kernel)
      for record in records {
        for length in 1...record.count {
          let prefix = Array(record.prefix(length))
          #expect(Self.outcome(scanner, prefix) == Self.outcome(reference, prefix), "\(kernel): \(prefix)")
          #expect(
            Self.outcome(trailing, prefix) == Self.outcome(referenceTrailing, prefix), "\(kernel): \(prefix)")
          cut += 1
        }
      }
    }
    #expect(cut > 0)
  }

  /// Bytes that matter to JSON, for mutations.
  static let alphabet: [UInt8] =
    Array(#""\{}[]:, 0123456789eE.+-tfnrulsa"#.utf8) + [
      0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0xED, 0xF0, 0xF4, 0xFF,
    ]
  static let allBytes: [UInt8] = (0...255).map { UInt8($0) }
  static let denseAlphabet: [UInt8] = Array("{}[]:,1".utf8)
  /// Minified JSON's bytes, and the bytes the wide kernels look for only in a block that has one
  /// (backslashes, control bytes, bytes above 0x7F), drawn now and then among them.
  static let plainAlphabet: [UInt8] = Array(#"{}[]:,"abcdefnrtu0123456789.-+eE"#.utf8)
  static let rareBytes: [UInt8] = [0x5C, 0x09, 0x0A, 0x0D, 0x01, 0x1F, 0x0C, 0x1A, 0x80, 0xC3, 0xA9, 0xFF]

  @Test("Mutated records: the same verdict, reason, offset and slots as the byte scanner")
  func mutatedRecordsAgree() {
    let reference = RecordScanner(trie: Self.trie, kernel: .byteAtATime)
    let referenceTrailing = RecordScanner(trie: Self.trie, allowTrailingCommas: true, kernel: .byteAtATime)
    var random = SplitMix64(seed: 2026)
    var mutants: [[UInt8]] = []
    for record in Self.validRecords {
      for _ in 0..<12 {
        var mutant = record
        for _ in 0...Int(random.next() % 3) {
          let position = Int(random.next() % UInt64(mutant.count + 1))
          let byte = Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
          switch random.next() % 3 {
          case 0 where position < mutant.count: mutant[position] = byte
          case 1 where position < mutant.count: mutant.remove(at: position)
          default: mutant.insert(byte, at: position)
          }
        }
        mutants.append(mutant)
      }
    }
    var rejected = 0
    for kernel in Self.kernels {
      let scanner = RecordScanner(trie: Self.trie, kernel: kernel)
      let trailing = RecordScanner(trie: Self.trie, allowTrailingCommas: true, kernel: kernel)
      for mutant in mutants {
        let expected = Self.outcome(reference, mutant)
        if expected.contains(" at ") { rejected += 1 }
        #expect(Self.outcome(scanner, mutant) == expected, "\(kernel): \(mutant)")
        #expect(Self.outcome(trailing, mutant) == Self.outcome(referenceTrailing, mutant), "\(kernel): \(mutant)")
      }
    }
    // The mutations must reach both verdicts, or the comparison proves little.
    #expect(rejected > mutants.count / 10 && rejected < mutants.count * Self.kernels.count * 9 / 10)
  }

  @Test("A CPU runs the kernels of its own family: NEON on arm64, the x86 kernels up to its best elsewhere")
  func kernelFamilies() {
    let x86Kernels: [RecordScanner.Kernel] = [.sse2, .avx2, .avx512, .avx512vbmi2]
    #if arch(arm64)
      #expect(RecordScanner.bestKernel == .neon && RecordScanner.supports(.neon))
      #expect(x86Kernels.allSatisfy { !RecordScanner.supports($0) })
    #elseif arch(x86_64)
      #expect(!RecordScanner.supports(.neon) && RecordScanner.bestKernel != .neon)
      #expect(x86Kernels.contains(RecordScanner.bestKernel) && RecordScanner.supports(.sse2))
    #endif
    #expect(RecordScanner.supports(.portable) && Self.kernels.contains(RecordScanner.bestKernel))
  }

  @Test("TXFOLD_MAX_KERNEL caps the kernel .best picks on x86, never above what the CPU has")
  func kernelCap() {
    #if arch(x86_64)
      let cpu = RecordScanner.bestKernel
      defer { unsetenv("TXFOLD_MAX_KERNEL") }
      setenv("TXFOLD_MAX_KERNEL", "sse2", 1)
      #expect(RecordScanner.bestKernel == .sse2)
      setenv("TXFOLD_MAX_KERNEL", "portable", 1)
      #expect(RecordScanner.bestKernel == .portable)
      setenv("TXFOLD_MAX_KERNEL", "avx512", 1)
      #expect(RecordScanner.bestKernel == (cpu == .avx512vbmi2 ? .avx512 : cpu))
      setenv("TXFOLD_MAX_KERNEL", "no-such-kernel", 1)
      #expect(RecordScanner.bestKernel == cpu)
    #endif
  }

  @Test("Every kernel indexes random bytes exactly as the portable one does")
  func kernelsAgreeOnRandomBytes() {
    var random = SplitMix64(seed: 7)
    let capacity = 600 + Int(TXFOLD_JSON_INDEX_SLACK)
    var expectedTokens = [UInt32](repeating: 0, count: capacity)
    var expectedSpecials = [UInt32](repeating: 0, count: capacity)
    var tokens = [UInt32](repeating: 0, count: capacity)
    var specials = [UInt32](repeating: 0, count: capacity)
    for round in 0..<4000 {
      let length = Int(random.next() % 600)
      // A quarter of the rounds from JSON's own bytes (so strings and escapes form), a quarter
      // from all bytes, a quarter from structural characters and digits, which put up to 64
      // tokens in one 64-byte block (every path of the VBMI2 kernel's listing), and a quarter
      // from minified JSON's bytes with a rare one now and then, so that blocks without a
      // backslash, control byte or byte above 0x7F (the AVX2 kernel's shortcut) lie next to
      // blocks with one.
      let bytes: [UInt8]
      switch round % 4 {
      case 3:
        bytes = (0..<length).map { _ in
          let draw = random.next()
          return draw % 97 == 0
            ? Self.rareBytes[Int((draw >> 8) % UInt64(Self.rareBytes.count))]
            : Self.plainAlphabet[Int((draw >> 8) % UInt64(Self.plainAlphabet.count))]
        }
      default:
        let alphabet = round % 4 == 0 ? Self.alphabet : round % 4 == 1 ? Self.allBytes : Self.denseAlphabet
        bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      }
      var expectedFlags: UInt32 = 0
      var expectedSpecialCount = 0
      let expectedCount = txfold_json_index(
        bytes, length, &expectedTokens, &expectedSpecials, &expectedSpecialCount, &expectedFlags,
        Int32(TXFOLD_JSON_INDEX_KERNEL_PORTABLE))
      for kernel in Self.kernels where kernel != .portable {
        var flags: UInt32 = 0
        var specialCount = 0
        let count = txfold_json_index(
          bytes, length, &tokens, &specials, &specialCount, &flags, RecordScanner.kernelNumber(kernel))
        #expect(count == expectedCount && flags == expectedFlags && specialCount == expectedSpecialCount)
        #expect(tokens[..<count] == expectedTokens[..<expectedCount], "\(kernel): \(bytes)")
        #expect(specials[..<specialCount] == expectedSpecials[..<expectedSpecialCount], "\(kernel): \(bytes)")
      }
    }
  }

  @Test("The portable kernel finds tokens where a plain reading of JSON puts them")
  func portableKernelMatchesADirectReading() {
    // A slow, obviously right reading: walk the bytes, track strings and escapes.
    func directIndex(_ bytes: [UInt8]) -> (tokens: [UInt32], specials: [UInt32], flags: UInt32) {
      var tokens: [UInt32] = []
      var specials: [UInt32] = []
      var flags: UInt32 = 0
      var inString = false
      var escaped = false
      var previousWasScalar = false
      for (offset, byte) in bytes.enumerated() {
        if inString {
          if byte < 0x20 { flags |= UInt32(TXFOLD_JSON_INDEX_CONTROL_IN_STRING) }
          if byte == .backslash || byte >= 0x80 { specials.append(UInt32(offset)) }
          if escaped {
            escaped = false
          } else if byte == .backslash {
            escaped = true
          } else if byte == .quote {
            inString = false
            tokens.append(UInt32(offset))
          }
          previousWasScalar = false
          continue
        }
        let isOp = Array("{}[]:,".utf8).contains(byte)
        // A backslash outside strings still escapes the next byte (the grammar rejects it
        // anyway): an escaped quote is then a scalar byte, an escaped backslash escapes nothing.
        let wasEscaped = escaped
        escaped = false
        if byte == .quote && !wasEscaped {
          inString = true
          tokens.append(UInt32(offset))
          previousWasScalar = false
        } else if isOp {
          tokens.append(UInt32(offset))
          previousWasScalar = false
        } else if byte.isJSONWhitespace {
          previousWasScalar = false
        } else {
          if !previousWasScalar { tokens.append(UInt32(offset)) }
          previousWasScalar = true
          if byte == .backslash && !wasEscaped { escaped = true }
        }
      }
      if inString { flags |= UInt32(TXFOLD_JSON_INDEX_UNTERMINATED_STRING) }
      return (tokens, specials, flags)
    }
    var random = SplitMix64(seed: 99)
    let capacity = 300 + Int(TXFOLD_JSON_INDEX_SLACK)
    var tokens = [UInt32](repeating: 0, count: capacity)
    var specials = [UInt32](repeating: 0, count: capacity)
    for _ in 0..<3000 {
      let bytes = (0..<Int(random.next() % 300)).map { _ in
        Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
      }
      var flags: UInt32 = 0
      var specialCount = 0
      let count = txfold_json_index(
        bytes, bytes.count, &tokens, &specials, &specialCount, &flags, Int32(TXFOLD_JSON_INDEX_KERNEL_PORTABLE))
      let expected = directIndex(bytes)
      #expect(Array(tokens[..<count]) == expected.tokens, "\(bytes)")
      #expect(Array(specials[..<specialCount]) == expected.specials, "\(bytes)")
      #expect(flags == expected.flags, "\(bytes)")
    }
  }
}
