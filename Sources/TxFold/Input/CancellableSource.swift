import Foundation

/// A flag one task sets and a reader thread checks: how an async entry point
/// stops a synchronous run.
final class CancellationFlag: Sendable {
  private let raised = LockedValue(false)

  var isSet: Bool { raised.withLock { $0 } }

  func raise() { raised.withLock { $0 = true } }
}

/// A source that throws instead of reading once its flag is raised, so a run
/// stops at its next read (at most one chunk later).
final class CancellableSource: WrappingSource {
  let source: any ByteSource
  private let flag: CancellationFlag

  init(_ source: any ByteSource, flag: CancellationFlag) {
    self.source = source
    self.flag = flag
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    if flag.isSet { throw .readFailed(path: source.name, reason: "cancelled") }
    return try source.read(into: buffer)
  }
}
