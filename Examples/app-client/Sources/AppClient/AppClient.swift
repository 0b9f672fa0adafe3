import Foundation
import TxFold

/// What an app does with a transaction export it downloaded: group the whole body (`Data`), group it
/// again as it streams in (an `AsyncSequence` of byte chunks, as `URLSession` delivers them), and
/// stop a stream that never ends by cancelling its task.
///
/// Usage: `AppClient FILE` (FILE stands in for the download).
@main
struct AppClient {
  static func main() async throws {
    guard CommandLine.arguments.count == 2 else {
      FileHandle.standardError.write(Data("usage: AppClient FILE\n".utf8))
      exit(64)
    }
    let body = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))

    // 1. The whole download at once.
    let downloaded = try GroupPipeline(options: GroupOptions()).run(sources: [
      InputOpener.open(data: body, name: "download")
    ])
    print("records: \(downloaded.stats.accepted) accepted, \(downloaded.stats.rejected) rejected")
    for section in downloaded.sections {
      print("\(section.state): \(section.groups.count) groups")
    }
    if let group = downloaded.sections.first?.groups.first {
      let totals = group.totals.map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")
      print("first group: \(group.date) \(group.creditDebitIndicator), \(group.count) transactions, \(totals)")
    }

    // 2. The same bytes as they arrive: chunks of 100 bytes, which cut records anywhere.
    let chunks = AsyncStream<[UInt8]> { continuation in
      var offset = 0
      while offset < body.count {
        let end = min(offset + 100, body.count)
        continuation.yield([UInt8](body[offset..<end]))
        offset = end
      }
      continuation.finish()
    }
    let streamed = try await GroupPipeline.run(options: GroupOptions(), name: "download", chunks: chunks)
    print("streamed equals downloaded: \(streamed == downloaded)")

    // Codable: the report's JSON is the command line's --format json.
    let json = try JSONEncoder().encode(downloaded)
    print("json: \(json.count > 0 ? "encoded" : "empty")")

    // 3. A stream that never ends, cancelled from outside: the run stops promptly.
    let endless = AsyncStream<[UInt8]> { continuation in
      let line =
        Array(
          #"{"id":"t1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","bookingDate":"2019-05-31","status":"BOOKED"}"#
            .utf8) + [UInt8(ascii: "\n")]
      let feeder = Task {
        while !Task.isCancelled {
          continuation.yield(line)
          try? await Task.sleep(nanoseconds: 1_000_000)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in feeder.cancel() }
    }
    let run = Task { try await GroupPipeline.run(options: GroupOptions(), chunks: endless) }
    try await Task.sleep(nanoseconds: 200_000_000)
    run.cancel()
    do {
      _ = try await run.value
      print("endless stream: finished (unexpected)")
    } catch is CancellationError {
      print("endless stream: cancelled")
    }
  }
}
