/// How much of an input is held at once: the two sizes that bound a run's
/// memory per chunk, whatever the input (a chunk holds `chunkCapacity` bytes).
///
/// The library's callers set them through `ReadOptions.maxRecordBytes` and
/// `ReadOptions.chunkSize`.
package struct RecordLimits: Sendable, Equatable {
  /// Longer records are rejected as `record-too-large` (their first 4 KiB go to the rejects file).
  /// At least 1; by default 1 MiB.
  package var maxRecordBytes: Int {
    get { storedMaxRecordBytes }
    set { storedMaxRecordBytes = max(1, newValue) }
  }
  /// Bytes read at a time, the most a worker is handed at once (plus one
  /// unfinished record carried over). At least 1; by default 1 MiB.
  package var chunkSize: Int {
    get { storedChunkSize }
    set { storedChunkSize = max(1, newValue) }
  }

  private var storedMaxRecordBytes = 1 << 20
  private var storedChunkSize = 1 << 20

  /// Creates the defaults: 1 MiB records, 1 MiB reads.
  package init() {}

  /// Creates limits of the given sizes (each at least 1).
  package init(maxRecordBytes: Int, chunkSize: Int = 1 << 20) {
    self.maxRecordBytes = maxRecordBytes
    self.chunkSize = chunkSize
  }

  /// What a chunk buffer must hold: one read after an unfinished record, and the newline that
  /// ends it (or the four-byte length before a length-prefixed one, `LengthPrefixedFramer`).
  var chunkCapacity: Int { chunkSize + maxRecordBytes + 4 }
}
