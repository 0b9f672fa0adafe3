import Foundation
import Testing

@testable import TxFold

/// An input cut off mid-write fails with `InputError.truncatedInput` (file and line), on every
/// chunk size and thread count; a complete last line without a newline, and malformed lines in
/// the middle, stay what they were.
@Suite("Truncated input")
struct TruncatedInputTests {
  /// The line where `run` stopped on a truncated input, or `nil` when it did not throw that.
  static func truncation(_ run: () throws -> Void) -> (path: String, line: Int, document: Bool)? {
    do {
      try run()
    } catch PipelineError.input(.truncatedInput(let path, let line, let document)) {
      return (path, line, document)
    } catch {
      return nil
    }
    return nil
  }

  static func group(_ bytes: [UInt8], chunkSize: Int, threads: Int) throws {
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    _ = try GroupPipeline(options: options).run(sources: [MemorySource(bytes, step: chunkSize, name: "cut")])
  }

  @Test(
    "A last line without its newline is cut short only when it ends inside a string, object or array",
    arguments: [
      (#"{"a":1"#, true), (#"{"a":"x"#, true), (#"{"a":"x\"#, true), (#"{"a":[1,2"#, true), (#"{"#, true),
      (#""abc"#, true), (#"{"a":1}"#, false), (#"{"a":}"#, false), (#"{"a":"}"}"#, false), (#"{"a":1}}"#, false),
      ("tru", false), ("  ", false), (#"{"a":"\\"}"#, false), ("\u{FEFF}{\"a\":1", true), (" \t[{\"a\"", true),
    ])
  func endsInsideValue(text: String, cut: Bool) {
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBufferPointer { LineFramer.endsInsideValue($0) } == cut, "\(text)")
  }

  /// Binary data, a file compressed twice, CSV: their quotes and brackets leave something open by
  /// chance, and such a last line used to fail the run as an input cut mid-write (74) instead of
  /// being rejected, which tells the data apart from a damaged transfer (65: not JSON).
  @Test(
    "A last line that is not the start of JSON is no cut, whatever it leaves open",
    arguments: [
      [0x1F, 0x8B, 0x08, 0x00, UInt8(ascii: "\""), 0x41],  // a gzip header, then a quote
      Array("{\"a\":\"x".utf8) + [0x00] + Array("y".utf8),  // a raw control byte inside a string
      Array("{\"a\":".utf8) + [0x89] + Array("PNG\"".utf8),  // a byte JSON never holds there
      Array("1,\"Caf".utf8), Array("id,\"name".utf8), Array("\"1\",\"Caf".utf8),  // CSV
      Array("{\"a\":1}{\"b\":\"x".utf8),  // goes on after its value closed
    ])
  func notJSONIsNoCut(bytes: [UInt8]) {
    #expect(bytes.withUnsafeBufferPointer { LineFramer.endsInsideValue($0) } == false, "\(bytes)")
  }

  @Test("JSON lines cut inside the last record: the file and that record's line, on every chunk size")
  func cutLines() throws {
    let lines = (1...6).map { backbaseRecord(id: "\"\($0)\"") }
    // A blank line in the middle still counts as a line.
    let text = lines.prefix(3).joined(separator: "\n") + "\n\n" + lines.dropFirst(3).joined(separator: "\n")
    let bytes = Array(text.utf8)
    for cut in [bytes.count - 1, bytes.count - 40, bytes.count - lines[5].utf8.count + 1] {
      for (size, threads) in [(1 << 20, 1), (7, 1), (64, 2), (13, 3)] {
        let found = Self.truncation { try Self.group(Array(bytes.prefix(cut)), chunkSize: size, threads: threads) }
        #expect(found?.path == "cut", "cut \(cut), size \(size)")
        #expect(found?.line == 7, "cut \(cut), size \(size)")
        #expect(found?.document == false)
      }
    }
    // Cut right after the record's last byte: a complete last line.
    let report = try GroupPipeline(options: GroupOptions()).run(sources: [MemorySource(bytes, name: "whole")])
    #expect(report.stats.accepted == 6)
    #expect(report.stats.rejected == 0)
  }

  @Test("The fixture without a final newline reads whole; a malformed middle line is a reject")
  func completeLastLine() throws {
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [
      Fixtures.path("corpus-no-final-newline.jsonl")
    ])
    #expect(report.stats.rejected == 0)
    let middle = Array((#"{"id":"x","amo"# + "\n" + backbaseRecord() + "\n").utf8)
    var rejections: [RecordRejection] = []
    let pipeline = GroupPipeline(options: GroupOptions())
    pipeline.onRejection = { rejections.append($0) }
    let mixed = try pipeline.run(sources: [MemorySource(middle, name: "m")])
    #expect(mixed.stats.accepted == 1)
    #expect(rejections.map(\.line) == [1])
    #expect(rejections.map(\.reason) == [.invalidJSON])
  }

  @Test("An array cut inside an element, or between elements, on every chunk size")
  func cutDocument() throws {
    let text = "[\n" + (1...4).map { backbaseRecord(id: "\"\($0)\"") }.joined(separator: ",\n") + "\n]\n"
    let bytes = Array(text.utf8)
    // The fourth record starts on line 5, followed by "\n]\n".
    let lastStart = bytes.count - (backbaseRecord(id: "\"4\"").utf8.count + 3)
    for (size, threads) in [(1 << 20, 1), (5, 1), (64, 2)] {
      let inside = Self.truncation {
        try Self.group(Array(bytes.prefix(lastStart + 10)), chunkSize: size, threads: threads)
      }
      #expect(inside?.line == 5 && inside?.document == false, "size \(size): \(String(describing: inside))")
      let between = Self.truncation {
        try Self.group(Array(bytes.prefix(lastStart - 2)), chunkSize: size, threads: threads)
      }
      #expect(between?.document == true, "size \(size): \(String(describing: between))")
    }
  }

  /// A document over lines cut before its array of records (a disk-full writer's first bytes) was
  /// read as JSON lines: each line rejected as text and the run failed as "not JSON lines, name the
  /// array with --items" (65), not as cut off. Its first object still open at the end, after its
  /// first line and without a syntax error, is a document never closed; a first line whose object is
  /// broken, then a newline, stays a rejected line.
  @Test(
    "A document over lines cut before its records: never closed, on every chunk size",
    arguments: [
      ("{\n  \"items\":", 2), ("{\n  \"account\": {\"iban\": \"NL01", 2), ("{\n  \"id\": \"1\",\n  \"amount\": ", 3),
      ("\u{FEFF}\n{\n  \"transactions\": {\n    \"booked\"", 4), ("{\r\n  \"items\"\r\n", 3),
    ])
  func cutBeforeRecords(text: String, line: Int) throws {
    for (size, threads) in [(1 << 20, 1), (1, 1), (3, 2), (64, 2)] {
      let found = Self.truncation { try Self.group(Array(text.utf8), chunkSize: size, threads: threads) }
      #expect(found?.line == line && found?.document == true, "\(text), size \(size): \(String(describing: found))")
    }
    for text in ["{\"id\":1,\n", "{\n", "{\"id\":1,\n\n"] {
      #expect(Self.truncation { try Self.group(Array(text.utf8), chunkSize: 1 << 20, threads: 1) } == nil, "\(text)")
    }
  }

  @Test("TransactionReader (list, summary) stops with the same error")
  func transactionReader() throws {
    let bytes = Array((backbaseRecord() + "\n" + backbaseRecord().dropLast(3)).utf8)
    let reader = TransactionReader()
    var caught: InputError?
    do {
      _ = try reader.read(typedSources: [MemorySource(bytes, name: "r")]) { _, _ in }
    } catch .input(.input(let error)) {
      caught = error
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(caught == .truncatedInput(path: "r", line: 2, insideDocument: false))
    #expect(caught?.description.contains("'r': ends inside a record at line 2") == true)
  }
}
