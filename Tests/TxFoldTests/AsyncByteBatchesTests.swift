import Foundation
import Testing

@testable import TxFold

/// `AsyncByteBatches`, behind `GroupPipeline.run(options:name:bytes:onRejection:)`: single bytes
/// gathered into chunks of any size give the file's report.
@Suite("Async byte batches")
struct AsyncByteBatchesTests {
  struct SingleBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]
    struct AsyncIterator: AsyncIteratorProtocol {
      let bytes: [UInt8]
      var offset = 0
      mutating func next() async -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
      }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
  }

  func requireSendable<T: Sendable>(_: T.Type) {}

  @Test("Single bytes in batches of any size group as the file does", arguments: [1, 5, 64 * 1024])
  func batches(size: Int) async throws {
    requireSendable(AsyncByteBatches<SingleBytes>.self)
    let path = Fixtures.path("corpus.jsonl.gz")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let expected = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    var chunks: [[UInt8]] = []
    for try await chunk in AsyncByteBatches(SingleBytes(bytes: bytes), size: size) { chunks.append(chunk) }
    #expect(chunks.dropLast().allSatisfy { $0.count == size } && chunks.joined().elementsEqual(bytes))
    let report = try await GroupPipeline.run(
      options: GroupOptions(), chunks: AsyncByteBatches(SingleBytes(bytes: bytes), size: size))
    #expect(report.sections == expected.sections)
  }
}
