import TxFold

/// Makes sure descriptors 0, 1 and 2 are open before anything else is.
///
/// A process started with one of them closed (`2>&-`) would otherwise get that
/// number for the first file it opens, and a message meant for standard error
/// would land in the report. Each closed one is opened on `/dev/null` (read-only
/// for 0, write-only for 1 and 2); a closed standard output is remembered, so
/// that a report meant for it is an error rather than silently lost.
enum StandardStreams {
  nonisolated(unsafe) private(set) static var standardOutputWasClosed = false
  /// Whether the process started with standard input closed (`<&-`): reading
  /// it would look like an empty input, so a run that reads it fails instead.
  nonisolated(unsafe) private(set) static var standardInputWasClosed = false

  /// Call first thing in `main`, before any file is opened.
  static func reserve() {
    for descriptor: Int32 in 0...2
    where SystemCalls.descriptorFlags(descriptor) == -1 && SystemCalls.lastError == SystemCalls.ErrorCode.badDescriptor
    {
      if descriptor == 0 { standardInputWasClosed = true }
      if descriptor == 1 { standardOutputWasClosed = true }
      let opened = SystemCalls.openFile("/dev/null", descriptor == 0 ? .readOnly : .writeOnly)
      // The lowest free number is taken, which is this one as the lower ones are open.
      if opened >= 0 && opened != descriptor {
        SystemCalls.duplicate(opened, to: descriptor)
        SystemCalls.closeDescriptor(opened)
      }
    }
  }
}
