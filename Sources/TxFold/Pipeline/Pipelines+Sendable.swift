// The pipeline objects are not `Sendable`: they hold callbacks (`onRejection`,
// `onProgress`) that a caller sets after creating them and that capture the
// caller's own state, and their runs keep mutable state. Said here
// explicitly, so that sending one to another task fails to compile with this
// note rather than with a vaguer one. To run in another task, send the
// options (which are `Sendable` values) and build the pipeline there, or use
// the `async` entry points such as `GroupPipeline.run(options:chunks:)`.

@available(
  *, unavailable, message: "send GroupOptions and create the pipeline in the task, or use the async run(options:…)"
)
extension GroupPipeline: Sendable {}

@available(*, unavailable, message: "send ListOptions and create the pipeline in the task")
extension ListPipeline: Sendable {}

@available(*, unavailable, message: "send SummaryOptions and create the pipeline in the task")
extension SummaryPipeline: Sendable {}

@available(*, unavailable, message: "send ReadOptions and create the reader in the task")
extension TransactionReader: Sendable {}

@available(
  *, unavailable, message: "a cursor reads its sort's files from one task; collect its transactions to send them"
)
extension ListCursor: Sendable {}
