/// A block of whole records handed from the reader to a worker.
///
/// The buffer is allocated once and reused through the pipeline's pool, so
/// reading allocates nothing per chunk. A chunk is owned by one thread at a
/// time and handed over through the pipeline's queues, which is what makes
/// the unchecked `Sendable` safe.
final class RecordChunk: @unchecked Sendable {
  /// What the chunk holds.
  enum Kind: Sendable {
    /// Whole lines, each ending in `\n` except perhaps the last line of a file.
    case lines
    /// One line longer than `--max-record-bytes`: the buffer holds its first
    /// bytes (at most 4 KiB) and `oversizedLength` its full length.
    case oversized
    /// Elements of a JSON array (or framing problems), listed in `spans`;
    /// the bytes between spans are separators and wrapper text to ignore.
    case elements
  }

  /// The storage, `capacity` bytes.
  let storage: UnsafeMutableRawBufferPointer
  /// Bytes in use, from the start of `storage`.
  var count = 0
  /// How the chunk holds its records (see `Kind`).
  var kind = Kind.lines
  /// The full length of an oversized line.
  var oversizedLength: Int64 = 0
  /// The records of an `.elements` chunk, in input order. Reused: its
  /// capacity stays with the chunk. `@exclusivity(unchecked)`: a chunk has one
  /// owner at a time, and the runtime's dynamic check on each span appended
  /// cost a nightly second pass as much as framing the record.
  @exclusivity(unchecked) var spans: [RecordSpan] = []
  /// Which input (by position in the run's list) the chunk comes from.
  var fileIndex = 0
  /// The chunk's position in the whole run, from 0; results are applied in this order.
  var sequence = 0
  /// Lines of its input before the chunk's first byte that no earlier chunk
  /// held (leading blank lines the framing detection dropped); `.lines` and
  /// `.oversized` only.
  var linesBefore = 0
  /// For `.lines` and `.oversized`: the 1-based position in its input of the
  /// chunk's first record, or 0 when positions were not counted (a schema
  /// whose records all have ids does not need them). `.elements` spans carry their own.
  var firstPosition = 0
  /// For `.lines` and `.oversized`: where the chunk's first byte is in its
  /// input's decoded bytes (`RecordFraming.offset`). `.elements` spans carry their own.
  var inputOffset: Int64 = 0
  /// The schema its records are read with: an index into the run's schema list.
  var schemaIndex = 0
  /// With `--schema auto`, how many of its first records come before the one
  /// that decided the input's schema: those are read with no schema (a valid
  /// object among them is rejected as fitting none).
  var undecidedRecords = 0
  /// The accounts of the wrapper documents the chunk's records came from (`RecordSpan.account`).
  var wrapperAccounts: [[UInt8]] = []
  /// For `.lines`: the chunk's last line has no newline and is not complete JSON, the
  /// input ends inside it (`LineFramer.endsInsideValue`); it comes as `.truncated`.
  var endsInsideRecord = false

  /// Allocates a chunk buffer of `capacity` bytes.
  init(capacity: Int) {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 64)
    storage.bindMemory(to: UInt8.self)
  }

  deinit { storage.deallocate() }

  /// The bytes in use.
  @inlinable var bytes: UnsafeBufferPointer<UInt8> {
    // Safe because `count` never exceeds the allocation and the memory is bound to UInt8 on first use.
    UnsafeBufferPointer(start: storage.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// The first byte of the buffer: the one entry point the framers write through.
  var base: UnsafeMutablePointer<UInt8> {
    // Safe because the buffer is allocated with at least one byte and bound to UInt8 in `init`.
    storage.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
  }

  /// Prepares the chunk to be filled with `kind` records of input `fileIndex`.
  func reset(kind: Kind, fileIndex: Int) {
    count = 0
    self.kind = kind
    self.fileIndex = fileIndex
    spans.removeAll(keepingCapacity: true)
    linesBefore = 0
    firstPosition = 0
    inputOffset = 0
    oversizedLength = 0
    undecidedRecords = 0
    endsInsideRecord = false
    if !wrapperAccounts.isEmpty { wrapperAccounts.removeAll() }
  }
}

/// One record of an `.elements` chunk: where its bytes are, and what framing
/// found about it.
struct RecordSpan: Sendable, Hashable {
  /// The record's bytes are `start..<end` of the chunk. For a record too
  /// large or cut short, only its first bytes (at most 4 KiB) are there.
  var start: Int
  /// One past the record's last byte in the chunk.
  var end: Int
  /// Where the record was in its input and what was wrong with it.
  var framing: RecordFraming
}

/// What framing found about one record, apart from where its bytes are: the
/// one description the array framer's spans and the workers' records share.
/// The defaults describe a well-formed record.
struct RecordFraming: Sendable, Hashable {
  /// The 1-based physical line of its input where the record starts (for a
  /// `.lines` chunk's record, of the chunk plus `linesBefore`; see `ChunkRecord`).
  var line: Int
  /// The record's 1-based position in its input, or 0 when not counted.
  var position: Int
  /// Where the record starts in its input's decoded bytes (for a line, its
  /// first byte, a byte-order mark included): later records start later,
  /// whatever the chunk sizes, so it names the record in `--dedupe`'s places.
  var offset: Int64 = 0
  /// The state its array implies (PSD2's `booked` and `pending`).
  var impliedState: ImpliedState = .none
  /// What framing found wrong with the record; `.none` for a record to decode.
  var problem: FramingProblem = .none
  /// The record's full length, for `.tooLarge` and `.truncated`.
  var length: Int64 = 0
  /// For `.outsideRecords`: the unexpected byte.
  var byte: UInt8 = 0
  /// The wrapper's account for the record (an index into its chunk's
  /// `wrapperAccounts`), or -1: a PSD2 report's `account.iban` / `resourceId`.
  var account: Int32 = -1
}

/// What the array framer found wrong with a record, before any decoding.
/// Each is one rejected record (Documentation/Formats.md, "Every line is accounted for": nothing is silently dropped).
enum FramingProblem: UInt8, Sendable, Hashable {
  /// None: the worker decodes the bytes.
  case none
  /// Longer than `--max-record-bytes` (`record-too-large`).
  case tooLarge
  /// The input ends inside the record, or inside the array or document
  /// around it (the remaining bytes, possibly none); for JSON lines, a last
  /// line without its newline that is not complete JSON. The run fails with
  /// `InputError.truncatedInput` when it meets one (`ResultAccounting`); the
  /// rejection (`invalid-json`) is what framing tests see without that rule.
  case truncated
  /// No `,` between this element and the one before (`invalid-json`).
  case missingSeparator
  /// `,,` or `[,`: no element where one belongs (`invalid-json`), whatever the options.
  case emptyElement
  /// `,]` closing the array of records, without `--allow-trailing-commas`, which accepts it (`invalid-json`).
  case trailingComma
  /// A top-level value without the array of records it should hold: no
  /// recognised wrapper, or nothing at `--items` (`missing-field`).
  case noRecordArray
  /// A syntax error in the document outside any record (`invalid-json`).
  case outsideRecords
  /// An element of a second array under a key its object already used for
  /// records (`items` twice): the first array was read, so the later one's
  /// records are rejected (`invalid-json`) rather than silently added.
  case repeatedArray
}
