import Foundation

extension GroupPipeline {
  /// The accounts of a per-account run over files, as an `AsyncSequence`:
  /// what a backend iterates to upsert each customer's grouped view, from a
  /// task, without blocking Swift's cooperative threads.
  ///
  /// ```swift
  /// var options = GroupOptions()
  /// options.read.accounts = .field
  /// for try await account in GroupPipeline.accounts(options: options, paths: ["dump.jsonl.gz"]) {
  ///   try await store.upsert(account)          // AccountReport, byte-wise order of account ids
  /// }
  /// ```
  ///
  /// The first `next()` reads and folds every input on a thread of its own
  /// (as `runPerAccount(paths:)` does); each later one hands out the next
  /// account, built (or merged back from disk) on such a thread, so at most
  /// one account is held beyond what the consumer keeps. The accounts are
  /// those of `runPerAccount(paths:)`, in the same order.
  ///
  /// A cancelled task stops the fold at its next read and `next()` throws
  /// `CancellationError`; a failed run throws its `PipelineError`.
  public static func accounts(
    options: GroupOptions, paths: [String], onRejection: (@Sendable (RecordRejection) throws -> Void)? = nil
  ) -> AccountReports {
    AccountReports(options: options, paths: paths, onRejection: onRejection)
  }
}

/// The accounts of a per-account run, handed out asynchronously
/// (`GroupPipeline.accounts(options:paths:onRejection:)`). Each iteration
/// runs the job once: the sequence is its own iterator, and a `for try await`
/// loop iterates a fresh copy, whose run starts at its first `next()`.
public struct AccountReports: AsyncSequence, AsyncIteratorProtocol, Sendable {
  let options: GroupOptions
  let paths: [String]
  let onRejection: (@Sendable (RecordRejection) throws -> Void)?
  /// The run's cursor, handed between the task and the threads that advance
  /// it one at a time (each `next()` awaits the one before): never used concurrently.
  private var cursor: HandOff<AccountReportCursor>?
  private var finished = false

  init(options: GroupOptions, paths: [String], onRejection: (@Sendable (RecordRejection) throws -> Void)?) {
    self.options = options
    self.paths = paths
    self.onRejection = onRejection
  }

  /// A fresh iteration: the run starts at its first `next()`.
  public func makeAsyncIterator() -> AccountReports {
    AccountReports(options: options, paths: paths, onRejection: onRejection)
  }

  /// The next account, or `nil` after the last.
  ///
  /// - Throws: `CancellationError` when the task is cancelled; `PipelineError` when the run fails.
  public mutating func next() async throws -> AccountReport? {
    guard !finished else { return nil }
    do {
      try Task.checkCancellation()
      let box: HandOff<AccountReportCursor>
      if let cursor {
        box = cursor
      } else {
        box = try await start()
        cursor = box
      }
      let result = await GroupPipeline.onOwnThread { () throws(PipelineError) -> AccountReport? in
        try box.value.next()
      }
      try Task.checkCancellation()
      guard let account = try result.get() else {
        finished = true
        return nil
      }
      return account
    } catch {
      finished = true
      throw error
    }
  }

  /// Folds every input on a thread of its own, honouring cancellation.
  private func start() async throws -> HandOff<AccountReportCursor> {
    let flag = CancellationFlag()
    let (options, paths, onRejection) = (options, paths, onRejection)
    return try await withTaskCancellationHandler {
      let result = await GroupPipeline.onOwnThread { () throws(PipelineError) -> HandOff<AccountReportCursor> in
        let pipeline = GroupPipeline(options: options)
        pipeline.onRejection = onRejection
        let inputs = RunInputs(try RunInputs(paths: paths), cancelledBy: flag)
        return HandOff(try pipeline.runPerAccount(inputs: inputs))
      }
      if Task.isCancelled || flag.isSet { throw CancellationError() }
      return try result.get()
    } onCancel: {
      flag.raise()
    }
  }
}
