import Foundation

/// `async` entry points: a run that honours task cancellation, over files or
/// any `AsyncSequence` of byte chunks (what `URLSession` hands out).
///
/// The pipeline itself is synchronous and thread-based, and blocks while it
/// reads; so it runs on a thread of its own (never on a thread of Swift's
/// cooperative pool, which it could starve). The calling task waits without
/// blocking:
///
/// - Over an `AsyncSequence`, the calling task iterates it and hands each
///   chunk to a bounded channel (a few chunk sizes) that the pipeline reads;
///   it suspends while the channel is full, so memory stays bounded whatever
///   the stream's speed. Gzip is detected from the first bytes, as for a file.
/// - Cancellation is checked before each chunk is handed over and wakes the
///   pipeline's read at once: the run stops at its next read and the call
///   throws `CancellationError`. A sequence that never yields and ignores
///   cancellation itself cannot be interrupted: its `next()` must return first.
/// - Over paths, the pipeline checks a cancellation flag before each read
///   (every chunk of at most `chunkSize` bytes).
///
/// `GroupOptions` is `Sendable`, so these are `static` and take the options by
/// value: call them from any task, `Task.detached` included. The callback
/// runs on the pipeline's thread, hence `@Sendable`.
extension GroupPipeline {
  /// Groups the bytes of `chunks`, read as one input called `name`.
  ///
  /// - Throws: `CancellationError` when the task is cancelled; the
  ///   sequence's own error when it fails; `PipelineError` when the run fails.
  public static func run<Chunks: AsyncSequence>(
    options: GroupOptions, name: String = "-", chunks: Chunks,
    onRejection: (@Sendable (RecordRejection) throws -> Void)? = nil
  ) async throws -> GroupReport where Chunks.Element: Sequence<UInt8> {
    let channel = ChunkChannel(name: name, capacity: 4 * max(64 * 1024, options.read.limits.chunkSize))
    return try await withTaskCancellationHandler {
      async let outcome = onOwnThread { () throws(PipelineError) -> GroupReport in
        defer { channel.closeReader() }
        let source: any ByteSource
        do throws(InputError) {
          source = try InputOpener.detectCompression(ChunkChannelSource(channel))
        } catch {
          throw .input(error)
        }
        let pipeline = GroupPipeline(options: options)
        pipeline.onRejection = onRejection
        return try pipeline.run(sources: [source])
      }
      var producerError: (any Error)?
      do {
        for try await chunk in chunks {
          if Task.isCancelled { break }
          guard await channel.send(Array(chunk)) else { break }
        }
      } catch {
        producerError = error
      }
      if Task.isCancelled {
        channel.stop(.cancelled)
      } else if producerError != nil {
        channel.stop(.producerFailed)
      } else {
        channel.finish()
      }
      let result = await outcome
      if Task.isCancelled || channel.stop == .cancelled { throw CancellationError() }
      if let producerError { throw producerError }
      return try result.get()
    } onCancel: {
      channel.stop(.cancelled)
    }
  }

  /// Groups files in order, as `run(paths:)` does. (`-`, standard input,
  /// works too, but cancellation cannot interrupt a read that waits on it.)
  ///
  /// - Throws: `CancellationError` when the task is cancelled; `PipelineError` when the run fails.
  public static func run(
    options: GroupOptions, paths: [String], onRejection: (@Sendable (RecordRejection) throws -> Void)? = nil
  ) async throws -> GroupReport {
    let flag = CancellationFlag()
    return try await withTaskCancellationHandler {
      let result = await onOwnThread { () throws(PipelineError) -> GroupReport in
        let pipeline = GroupPipeline(options: options)
        pipeline.onRejection = onRejection
        return try pipeline.run(inputs: RunInputs(try RunInputs(paths: paths), cancelledBy: flag))
      }
      if Task.isCancelled || flag.isSet { throw CancellationError() }
      return try result.get()
    } onCancel: {
      flag.raise()
    }
  }

  /// Runs `body` on a new thread and waits for it without blocking the task.
  static func onOwnThread<Value: Sendable>(
    _ body: @escaping @Sendable () throws(PipelineError) -> Value
  ) async -> Result<Value, PipelineError> {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: Result { () throws(PipelineError) -> Value in try body() })
      }
      // With one thread this one also decodes and folds, which the CLI does
      // on its main thread: give it a main thread's stack, not a secondary
      // thread's default 512 KiB.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }
}
