import CZstd

/// The file an incremental run keeps between nights (`--state-out`, read back
/// by `--state-in`): every transaction folded so far, once (the winner of its
/// key), with the run's settings and cumulative counts (Documentation/Formats.md,
/// "The state file").
///
/// ```
/// "TXFSTATE"  u32 version  u32 header length  header
/// zstd frame: records, each u32 length + payload
/// trailer (36 bytes): u64 records  u64 body bytes  u32 crc32(body)  u32 crc32(header)
///                     u32 crc32(compressed body)  "TXFSEND\n"
/// ```
///
/// All integers little-endian. The header is a list of entries, each `u16`
/// name length, name, `u32` value length, value (UTF-8 text): `setting.NAME`
/// for each setting the state was written with, `count.NAME` for the
/// cumulative counts (decimal), `reason.NAME` for rejections per reason,
/// `schemas` for the schemas used, `inputs.count` and `inputs.names`
/// (the first three file names, joined by `/`) for the inputs every night read (an html title names them). A record's payload is a flags byte (bit 0
/// account, 1 description, 2 category, 3 counterparty, 4 fee present, 5 the
/// id is the record's position in its input, never a dedupe key), the
/// indicator (0 credit, 1 debit), then `u32` length + UTF-8 bytes for the id,
/// the instant as written, the signed amount, the currency, the state, and
/// those of account, description, category, counterparty and fee present.
/// Records are in account order (byte-wise; without accounts, the order
/// they were first read), each account's in the order they were read.
enum StateFile {
  static let magic = TxFoldFileFormat.stateMagic

  /// Why bytes that do not start with `magic` are refused, saying what they are where their
  /// first bytes tell (`start`: up to `TxFoldFileFormat.longestMagic` of them): a state compressed
  /// once more (kept so in object storage, say), with the command that opens it; a partial, which
  /// goes to the merge; JSON, which is an input.
  static func notAState(startingWith start: [UInt8]) -> String {
    if let format = CompressionFormat.detect(start) {
      return
        "it is \(format.rawValue)-compressed, not a TxFold state file; decompress it first (\(format.decompressCommand))"
    }
    if TxFoldFileFormat.detect(start) == .partial { return notAStatePartial }
    if TxFoldFileFormat.startsLikeJSON(start) { return notAStateJSON }
    return "it is not a TxFold state file"
  }
  /// A partial given as the previous state (the CLI words it with its flags).
  static let notAStatePartial =
    "it is a TxFold partial state (GroupPipeline.runPartial), not a state file (NightlyState.write): "
    + "merge it with the other partials (PartialMerger), not as the previous state"
  /// JSON given as the previous state: most likely tonight's export in the wrong place.
  static let notAStateJSON =
    "it is not a TxFold state file: it starts like JSON (transactions?), which a run reads as an input, "
    + "not as the previous state"
  static let endMagic = Array("TXFSEND\n".utf8)
  static let version: UInt32 = 1
  static let trailerSize = 36
  /// zstd's level for the records: one of its fast levels. A night writes
  /// the whole state again and reads it once, so compressing is on a
  /// night's path; at -10 compressing takes a quarter fewer instructions than
  /// at -3, and decompressing an eighth fewer, for a state 1.13 times as
  /// large (one byte in six of its JSON, where the goal is three in ten;
  /// Decisions). Any level reads back alike: it is not part of the layout.
  static let compressionLevel: Int32 = -10
  /// A header longer than this is damage, not settings.
  static let maxHeaderBytes = 1 << 20
  /// A record longer than this is damage: no input record is longer than `--max-record-bytes`'s limit.
  static let maxRecordBytes = 1 << 26

  /// Checksum of `bytes` continuing `crc` (zlib's CRC-32).
  static func crc(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    CRC32.update(crc, bytes)
  }

  static func appendU32(_ value: UInt32, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  static func appendU64(_ value: UInt64, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  static func u32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  static func u64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}

/// Why a state file cannot be used: damaged, from another version, or
/// written with other settings (the CLI exits 65 with the message) — or not
/// read at all (`inputFailure`: an input that cannot be opened, 66, or whose
/// reading failed, 74).
package struct StateFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The state file's path.
  package var path: String
  /// What is wrong, as a sentence fragment (`its checksum does not match`).
  package var problem: String
  /// Set when the file cannot be opened (missing, no permission, a directory) or
  /// reading it failed (a pipe's read, or its copy's disk): what
  /// `PipelineError.state(_:)` reports instead of a refused state.
  package var inputFailure: InputError?

  package init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  /// The state at `path` cannot be opened, for `reason` (the system's, or `is a directory`).
  static func cannotOpen(_ path: String, reason: String) -> StateFileError {
    var error = StateFileError(path: path, problem: "cannot be opened (\(reason))")
    error.inputFailure = .cannotOpen(path: path, reason: reason + " (the state file)")
    return error
  }

  /// Reading the state at `path` failed, for `reason`: not the state's fault (74, as any input's).
  static func cannotRead(_ path: String, reason: String) -> StateFileError {
    var error = StateFileError(path: path, problem: "cannot be read (\(reason))")
    error.inputFailure = .readFailed(path: path, reason: reason)
    return error
  }

  /// The sentence the library gives: the path and what is wrong.
  package var description: String { "State file '\(path)': \(problem)." }
}

/// The state's header: settings and cumulative counts, in the order written.
struct StateHeader: Equatable {
  var entries: [(name: String, value: String)] = []

  static func == (lhs: StateHeader, rhs: StateHeader) -> Bool {
    lhs.entries.map(\.name) == rhs.entries.map(\.name) && lhs.entries.map(\.value) == rhs.entries.map(\.value)
  }

  subscript(name: String) -> String? {
    entries.first { $0.name == name }?.value
  }

  var encoded: [UInt8] {
    var out: [UInt8] = []
    for (name, value) in entries {
      let nameBytes = Array(name.utf8)
      let valueBytes = Array(value.utf8)
      withUnsafeBytes(of: UInt16(truncatingIfNeeded: nameBytes.count).littleEndian) { out.append(contentsOf: $0) }
      out.append(contentsOf: nameBytes)
      StateFile.appendU32(UInt32(truncatingIfNeeded: valueBytes.count), to: &out)
      out.append(contentsOf: valueBytes)
    }
    return out
  }

  init(entries: [(name: String, value: String)] = []) {
    self.entries = entries
  }

  /// Parses an encoded header; `nil` when it is not one.
  init?(decoding bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      guard offset + 2 <= bytes.count else { return nil }
      let nameLength = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      offset += 2
      guard offset + nameLength + 4 <= bytes.count else { return nil }
      let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + nameLength]), as: UTF8.self)
      offset += nameLength
      let valueLength = Int(StateFile.u32(bytes, at: offset))
      offset += 4
      guard valueLength <= bytes.count - offset else { return nil }
      let value = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + valueLength]), as: UTF8.self)
      offset += valueLength
      entries.append((name, value))
    }
  }
}

/// One transaction of a state file, as its payload's bytes.
struct StateRecord {
  /// The payload's first byte: which optional fields follow, and how the id is meant.
  struct Flags: OptionSet {
    let rawValue: UInt8
    static let hasAccount = Flags(rawValue: 1)
    static let hasDescription = Flags(rawValue: 2)
    static let hasCategory = Flags(rawValue: 4)
    static let hasCounterparty = Flags(rawValue: 8)
    static let hasFee = Flags(rawValue: 16)
    /// The id is the record's position in its input (a schema without ids): shown, never a dedupe key.
    static let positionalID = Flags(rawValue: 32)
    static let all: Flags = [.hasAccount, .hasDescription, .hasCategory, .hasCounterparty, .hasFee, .positionalID]
  }

  /// The fields in payload order; `nil` for an optional one absent.
  struct Fields {
    var indicator: CreditDebitIndicator = .credit
    var positionalID = false
    var id: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    var instant: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    var amount: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    var currency: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    var state: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    var account: UnsafeRawBufferPointer?
    var description: UnsafeRawBufferPointer?
    var category: UnsafeRawBufferPointer?
    var counterparty: UnsafeRawBufferPointer?
    var fee: UnsafeRawBufferPointer?
  }

  /// Splits a payload into its fields; `nil` when it is not a record.
  ///
  /// Inlined, so that a caller that only checks the split keeps no field at all.
  ///
  /// - Complexity: O(1) per field: every night splits every record of the state, twice.
  @inline(__always)
  static func fields(of payload: UnsafeRawBufferPointer) -> Fields? {
    var fields = Fields()
    return split(payload, into: &fields) ? fields : nil
  }

  /// Splits a payload into `fields` (every one of them set); `false` when it
  /// is not a record. A night's second pass splits every record it decodes:
  /// written in place, the fields are not copied, where an optional
  /// `Fields` returned was copied twice, which cost as much as the split.
  @inline(__always)
  static func split(_ payload: UnsafeRawBufferPointer, into fields: inout Fields) -> Bool {
    guard payload.count >= 2, let base = payload.baseAddress else { return false }
    let flags = Flags(rawValue: base.load(as: UInt8.self))
    let indicator = base.load(fromByteOffset: 1, as: UInt8.self)
    guard flags.isSubset(of: .all), indicator <= 1 else { return false }
    var offset = 2
    var intact = true
    /// The next field; sets `intact` to false (and returns an empty field) when it runs past the end.
    @inline(__always) func next() -> UnsafeRawBufferPointer {
      guard intact, let field = field(of: payload, at: &offset) else {
        intact = false
        return UnsafeRawBufferPointer(start: nil, count: 0)
      }
      return field
    }
    fields.positionalID = flags.contains(.positionalID)
    fields.indicator = indicator == 0 ? .credit : .debit
    fields.id = next()
    fields.instant = next()
    fields.amount = next()
    fields.currency = next()
    fields.state = next()
    fields.account = flags.contains(.hasAccount) ? next() : nil
    fields.description = flags.contains(.hasDescription) ? next() : nil
    fields.category = flags.contains(.hasCategory) ? next() : nil
    fields.counterparty = flags.contains(.hasCounterparty) ? next() : nil
    fields.fee = flags.contains(.hasFee) ? next() : nil
    return intact && offset == payload.count
  }

  /// The length-prefixed field at `offset`, which moves past it; `nil` when it runs past the payload.
  /// Raw loads, no slices: every night reads every record's fields twice.
  @inline(__always)
  private static func field(of payload: UnsafeRawBufferPointer, at offset: inout Int) -> UnsafeRawBufferPointer? {
    guard let base = payload.baseAddress, payload.count - offset >= 4 else { return nil }
    // Safe because offset + 4 <= count: the length lies inside the payload.
    let length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    let start = offset + 4
    guard length <= payload.count - start else { return nil }
    offset = start + length
    // Safe because start + length <= count.
    return UnsafeRawBufferPointer(start: base + start, count: length)
  }

  /// The id of a record and whether it is a position standing in for one
  /// (`Flags.positionalID`); `nil` when the payload is too short to hold it.
  /// The id is the first field: a night's merge asks it of every previous
  /// record of an account that tonight's records touch.
  static func id(of payload: UnsafeRawBufferPointer) -> (id: UnsafeRawBufferPointer, positional: Bool)? {
    guard payload.count >= 2 else { return nil }
    var offset = 2
    guard let id = field(of: payload, at: &offset) else { return nil }
    return (id, Flags(rawValue: payload[0]).contains(.positionalID))
  }

  /// The account of a record (empty without one). Skips the five fields
  /// before it rather than splitting the whole payload: the state's merge
  /// and tonight's runs ask it of every record.
  static func account(of payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    let none = UnsafeRawBufferPointer(start: nil, count: 0)
    guard payload.count >= 2, Flags(rawValue: payload[0]).contains(.hasAccount) else { return none }
    var offset = 2
    for _ in 0..<5 { guard field(of: payload, at: &offset) != nil else { return none } }
    return field(of: payload, at: &offset) ?? none
  }
}

/// Reads a state file's records in order, checking as it goes; the last
/// `next()` checks the count, length and checksum the trailer promises.
///
/// `@exclusivity(unchecked)` on what `nextPayload()` reads per record: one
/// thread reads a reader, and the runtime's dynamic check cost more than
/// finding a record.
final class StateFileReader {
  let path: String
  let header: StateHeader
  /// Records the trailer says the body holds.
  let recordCount: Int
  private let bodyBytes: UInt64
  private let bodyCRC: UInt32
  /// CRC-32 of the compressed body as stored: a change that zstd would decode to the same
  /// records (a window size, say) is damage too.
  private let compressedCRC: UInt32
  private var storedCRC: UInt32 = 0
  private let descriptor: Int32
  private var remaining: Int64
  private var bodyOffset: Int64
  private let stream: OpaquePointer
  /// Compressed bytes read from the file, `inputStart..<inputEnd` not yet decompressed.
  private let input: UnsafeMutableRawBufferPointer
  private var inputStart = 0
  private var inputEnd = 0
  /// Decompressed bytes, `bodyStart..<bodyEnd` not yet handed out: zstd writes straight in
  /// after them, and what is left of a record moves to the front first. Grows to hold the
  /// longest record.
  @exclusivity(unchecked) private var body: UnsafeMutableRawBufferPointer
  @exclusivity(unchecked) private var bodyStart = 0
  @exclusivity(unchecked) private var bodyEnd = 0
  private var crc: UInt32 = 0
  private var decompressed: UInt64 = 0
  @exclusivity(unchecked) private var recordsRead = 0
  private var frameDone = false
  /// Bytes of the file read so far.
  private(set) var storedBytesRead: Int64 = 0
  let storedSize: Int64

  /// Whether the decompressed records are checked here (their CRC-32, and
  /// that each is a record), or only the stored bytes' CRC-32.
  private let checksRecords: Bool
  /// The CRC-32 of the decompressed records (u32 length + payload each), as
  /// the trailer says: for a reader that checks them elsewhere.
  var recordsChecksum: UInt32 { bodyCRC }

  /// Opens `path` and checks its magic, version and header: a path that
  /// cannot be opened or is a directory throws `StateFileError.inputFailure`;
  /// one that is not a regular file (a FIFO, a device) is refused without
  /// being opened (opening a FIFO would wait for a writer). `checksRecords`
  /// false leaves the decompressed records unchecked (the stored bytes' CRC
  /// is still checked): for a file whose records were checked once this run,
  /// which the same stored bytes decompress to again, or whose reader checks
  /// them on another thread (`recordsChecksum`, `StateRecord.fields`).
  convenience init(path: String, checksRecords: Bool = true) throws(StateFileError) {
    // A pipe is read through its copy (`NightlyState`); one found here was put in the file's place.
    if let status = SystemCalls.status(ofPath: path), !status.isRegularFile {
      if status.isDirectory { throw .cannotOpen(path, reason: "is a directory") }
      throw StateFileError(path: path, problem: "is not a regular file (a FIFO or a device)")
    }
    var opened: Int32
    repeat {
      // Non-blocking: a FIFO put in the file's place since the check above is refused, not waited on.
      opened = SystemCalls.openFile(path, [.readOnly, .closeOnExec, .nonBlocking])
    } while opened < 0 && SystemCalls.lastError == SystemCalls.ErrorCode.interrupted
    guard opened >= 0 else { throw .cannotOpen(path, reason: SystemCalls.errorText(SystemCalls.lastError)) }
    try self.init(descriptor: opened, name: path, checksRecords: checksRecords)
  }

  /// `init(path:checksRecords:)` on a descriptor open for reading, which the
  /// reader owns from here on (it is closed on failure too): a state read
  /// from a pipe is read from its copy (`NightlyState`).
  init(descriptor opened: Int32, name path: String, checksRecords: Bool = true) throws(StateFileError) {
    self.path = path
    self.checksRecords = checksRecords
    func damaged(_ problem: String) -> StateFileError { StateFileError(path: path, problem: problem) }
    descriptor = opened
    var ok = false
    defer { if !ok { _ = SystemCalls.closeDescriptor(opened) } }
    guard let status = SystemCalls.status(ofDescriptor: opened), status.kind == .regular else {
      throw damaged("is not a regular file")
    }
    storedSize = status.size
    func readExactly(_ count: Int, at offset: Int64) -> [UInt8]? {
      var bytes = [UInt8](repeating: 0, count: count)
      var done = 0
      while done < count {
        let read = bytes.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return -1 }
          return SystemCalls.readBytes(opened, into: base + done, count: count - done, at: offset + Int64(done))
        }
        guard read > 0 else { return nil }
        done += read
      }
      return bytes
    }
    let minimum = Int64(16 + StateFile.trailerSize)
    guard status.size >= minimum, let start = readExactly(16, at: 0) else {
      throw damaged("it is too short to be a state file (truncated?)")
    }
    guard Array(start[0..<8]) == StateFile.magic else {
      // A partial's header is longer than the 16 bytes read so far: read enough to tell.
      let longer = readExactly(Int(min(status.size, Int64(TxFoldFileFormat.longestMagic))), at: 0) ?? start
      throw damaged(StateFile.notAState(startingWith: longer))
    }
    let version = start.withUnsafeBytes { StateFile.u32($0, at: 8) }
    guard version == StateFile.version else {
      throw damaged(
        "it was written by a TxFold whose state version is \(version); this version of TxFold reads version \(StateFile.version)"
      )
    }
    let headerLength = Int(start.withUnsafeBytes { StateFile.u32($0, at: 12) })
    guard headerLength <= StateFile.maxHeaderBytes,
      Int64(16 + headerLength) + Int64(StateFile.trailerSize) <= status.size,
      let headerBytes = readExactly(headerLength, at: 16),
      let trailer = readExactly(StateFile.trailerSize, at: status.size - Int64(StateFile.trailerSize))
    else { throw damaged("it is truncated (its header or trailer is missing)") }
    guard Array(trailer[28..<36]) == StateFile.endMagic else {
      throw damaged("it is truncated (it does not end with the state trailer)")
    }
    let headerCRC = headerBytes.withUnsafeBytes { StateFile.crc(0, $0) }
    guard headerCRC == trailer.withUnsafeBytes({ StateFile.u32($0, at: 20) }) else {
      throw damaged("its checksum does not match (the header is damaged)")
    }
    guard let header = headerBytes.withUnsafeBytes({ StateHeader(decoding: $0) }) else {
      throw damaged("its header cannot be read")
    }
    self.header = header
    let records = trailer.withUnsafeBytes { StateFile.u64($0, at: 0) }
    guard records < UInt64(Int.max) else { throw damaged("its trailer is damaged") }
    recordCount = Int(records)
    bodyBytes = trailer.withUnsafeBytes { StateFile.u64($0, at: 8) }
    bodyCRC = trailer.withUnsafeBytes { StateFile.u32($0, at: 16) }
    compressedCRC = trailer.withUnsafeBytes { StateFile.u32($0, at: 24) }
    remaining = status.size - Int64(16 + headerLength + StateFile.trailerSize)
    bodyOffset = Int64(16 + headerLength)
    guard let created = ZSTD_createDStream() else { throw damaged("no memory to decompress it") }
    stream = created
    input = .allocate(byteCount: 1 << 17, alignment: 16)
    body = .allocate(byteCount: 1 << 18, alignment: 16)
    storedBytesRead = Int64(16 + headerLength)
    ok = true
  }

  deinit {
    ZSTD_freeDStream(stream)
    input.deallocate()
    body.deallocate()
    _ = SystemCalls.closeDescriptor(descriptor)
  }

  /// The next record's payload, valid until the next call; `nil` after the
  /// last one, once the trailer's promises are checked. No closure and no
  /// copy per record: every night reads every record of the state twice.
  func nextPayload() throws(StateFileError) -> UnsafeRawBufferPointer? {
    func damaged(_ problem: String) -> StateFileError { StateFileError(path: path, problem: problem) }
    while true {
      let available = bodyEnd - bodyStart
      if available >= 4 {
        let length = Int(StateFile.u32(UnsafeRawBufferPointer(body), at: bodyStart))
        guard length <= StateFile.maxRecordBytes else { throw damaged("record \(recordsRead + 1) is damaged") }
        if available >= 4 + length {
          // Safe because bodyStart + 4 + length <= bodyEnd <= body.count.
          let payload = UnsafeRawBufferPointer(rebasing: body[bodyStart + 4..<bodyStart + 4 + length])
          bodyStart += 4 + length
          recordsRead += 1
          guard recordsRead <= recordCount else { throw damaged("it holds more records than its trailer says") }
          guard !checksRecords || StateRecord.fields(of: payload) != nil else {
            throw damaged("record \(recordsRead) is damaged")
          }
          return payload
        }
        if 4 + length > body.count { grow(to: 4 + length) }
      }
      if !(try refill()) {
        guard bodyEnd == bodyStart else { throw damaged("it is truncated (it ends inside a record)") }
        guard recordsRead == recordCount, decompressed == bodyBytes else {
          throw damaged("it is truncated (\(recordsRead) of \(recordCount) records)")
        }
        guard crc == bodyCRC || !checksRecords, storedCRC == compressedCRC else {
          throw damaged("its checksum does not match (the file is damaged)")
        }
        return nil
      }
    }
  }

  /// Makes `body` at least `size` bytes, keeping what it holds.
  private func grow(to size: Int) {
    body.grow(toAtLeast: size, keeping: bodyStart..<bodyEnd, alignment: 16)
    bodyEnd -= bodyStart
    bodyStart = 0
  }

  /// Decompresses more of the body after what is left of it; `false` at its end.
  private func refill() throws(StateFileError) -> Bool {
    func damaged(_ problem: String) -> StateFileError { StateFileError(path: path, problem: problem) }
    if bodyStart > 0 {
      // What is left is less than a record: moved to the front, so zstd has the rest of the buffer.
      if let base = body.baseAddress, bodyEnd > bodyStart {
        base.copyMemory(from: base + bodyStart, byteCount: bodyEnd - bodyStart)
      }
      bodyEnd -= bodyStart
      bodyStart = 0
    }
    while true {
      if inputStart == inputEnd && remaining > 0 {
        let want = Int(min(Int64(input.count), remaining))
        let read = SystemCalls.readBytes(descriptor, into: input.baseAddress, count: want, at: bodyOffset)
        guard read > 0 else {
          throw damaged(
            "it cannot be read (\(read < 0 ? SystemCalls.errorText(SystemCalls.lastError) : "it ended early"))")
        }
        inputStart = 0
        inputEnd = read
        remaining -= Int64(read)
        bodyOffset += Int64(read)
        storedBytesRead += Int64(read)
        storedCRC = StateFile.crc(storedCRC, UnsafeRawBufferPointer(rebasing: input[0..<read]))
      }
      if inputStart == inputEnd {
        guard frameDone || decompressed == 0 && bodyBytes == 0 else {
          throw damaged("it is truncated (inside its compressed body)")
        }
        return false
      }
      guard let inputBase = input.baseAddress, let bodyBase = body.baseAddress else { return false }
      var inBuffer = ZSTD_inBuffer(src: inputBase + inputStart, size: inputEnd - inputStart, pos: 0)
      // Never empty: what is left is shorter than the record `body` was grown to hold.
      var outBuffer = ZSTD_outBuffer(dst: bodyBase + bodyEnd, size: body.count - bodyEnd, pos: 0)
      let hint = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
      inputStart += inBuffer.pos
      let produced = outBuffer.pos
      if ZSTD_isError(hint) != 0 { throw damaged("its compressed body is damaged") }
      frameDone = hint == 0
      if produced > 0 {
        if checksRecords {
          crc = StateFile.crc(crc, UnsafeRawBufferPointer(rebasing: body[bodyEnd..<bodyEnd + produced]))
        }
        decompressed += UInt64(produced)
        guard decompressed <= bodyBytes else { throw damaged("it holds more bytes than its trailer says") }
        bodyEnd += produced
        return true
      }
    }
  }
}

/// Writes a state file to a descriptor: the header, then records one at a
/// time through zstd, then the trailer (`finish`).
final class StateFileWriter {
  private let descriptor: Int32
  private let name: String
  private let stream: OpaquePointer
  private var pending: [UInt8] = []
  private let compressed: UnsafeMutableRawBufferPointer
  private var crc: UInt32 = 0
  private var bodyBytes: UInt64 = 0
  private(set) var records = 0
  private var headerCRC: UInt32
  /// The header's bytes as first written.
  private let headerLength: Int
  private var compressedCRC: UInt32 = 0

  /// A writer to `descriptor` whose records are compressed on `workers` threads of zstd's
  /// (at least one): any number writes the same bytes.
  init(descriptor: Int32, name: String, header: StateHeader, workers: Int = 1) throws(OutputError) {
    self.descriptor = descriptor
    self.name = name
    guard let created = ZSTD_createCStream() else { throw OutputError(path: name, reason: "no memory to compress") }
    stream = created
    _ = ZSTD_CCtx_setParameter(stream, ZSTD_c_compressionLevel, StateFile.compressionLevel)
    // zstd's workers: the records are compressed beside the thread that appends them (a night's
    // merge, which the second pass waits on). Any number of workers, from one, writes the same
    // bytes; more of them (a run's `--threads`) keep the merge from waiting on one job.
    _ = ZSTD_CCtx_setParameter(stream, ZSTD_c_nbWorkers, Int32(clamping: max(1, workers)))
    // Jobs of 1 MiB: the few jobs in flight are what the workers hold (zstd's default at this level
    // held 5–8 MiB more at the peak), and the merge waits on the oldest when they are all taken
    // (512 KiB jobs made a night 3 % slower).
    _ = ZSTD_CCtx_setParameter(stream, ZSTD_c_jobSize, 1 << 20)
    compressed = .allocate(byteCount: Int(ZSTD_CStreamOutSize()), alignment: 16)
    let headerBytes = header.encoded
    headerCRC = headerBytes.withUnsafeBytes { StateFile.crc(0, $0) }
    headerLength = headerBytes.count
    var start = StateFile.magic
    StateFile.appendU32(StateFile.version, to: &start)
    StateFile.appendU32(UInt32(truncatingIfNeeded: headerBytes.count), to: &start)
    start.append(contentsOf: headerBytes)
    try write(start)
  }

  deinit {
    ZSTD_freeCStream(stream)
    compressed.deallocate()
  }

  /// Appends one record's payload.
  func append(_ payload: UnsafeRawBufferPointer) throws(OutputError) {
    StateFile.appendU32(UInt32(truncatingIfNeeded: payload.count), to: &pending)
    pending.append(contentsOf: payload)
    records += 1
    if pending.count >= 1 << 17 { try compress(end: false) }
  }

  /// Appends body bytes as they are (`u32` length + payload per record, cut
  /// anywhere), `records` of which begin in them: compressed from where they
  /// lie, with no copy of the writer's own.
  func append(body: UnsafeRawBufferPointer, records: Int) throws(OutputError) {
    if !pending.isEmpty { try compress(end: false) }
    self.records += records
    try compress(body, end: false)
  }

  /// Ends the body and writes the trailer; with `header`, which must encode
  /// to as many bytes as the one the writer began with (counts written to a
  /// fixed width), that header replaces it first.
  func finish(header: StateHeader? = nil) throws(OutputError) {
    try compress(end: true)
    if let header { try rewrite(header) }
    var trailer: [UInt8] = []
    StateFile.appendU64(UInt64(records), to: &trailer)
    StateFile.appendU64(bodyBytes, to: &trailer)
    StateFile.appendU32(crc, to: &trailer)
    StateFile.appendU32(headerCRC, to: &trailer)
    StateFile.appendU32(compressedCRC, to: &trailer)
    trailer.append(contentsOf: StateFile.endMagic)
    try write(trailer)
  }

  /// Writes `header` over the one written first (at byte 16), which it must be as long as.
  private func rewrite(_ header: StateHeader) throws(OutputError) {
    let bytes = header.encoded
    guard bytes.count == headerLength else {
      throw OutputError(path: name, reason: "tonight's state header changed its length")
    }
    headerCRC = bytes.withUnsafeBytes { StateFile.crc(0, $0) }
    try withUnsafeBytes(of: bytes) { (raw) throws(OutputError) in
      try DescriptorWriting.writeAll(raw, to: descriptor, at: 16, name: name)
    }
  }

  private func compress(end: Bool) throws(OutputError) {
    var failure: OutputError?
    pending.withUnsafeBytes { raw in
      do throws(OutputError) { try compress(raw, end: end) } catch { failure = error }
    }
    pending.removeAll(keepingCapacity: true)
    if let failure { throw failure }
  }

  /// Compresses `bytes` of the body (all of them, and the frame's end with `end`), writing what zstd gives.
  private func compress(_ inRaw: UnsafeRawBufferPointer, end: Bool) throws(OutputError) {
    crc = StateFile.crc(crc, inRaw)
    bodyBytes += UInt64(inRaw.count)
    var inBuffer = ZSTD_inBuffer(src: inRaw.baseAddress, size: inRaw.count, pos: 0)
    while true {
      var outBuffer = ZSTD_outBuffer(dst: compressed.baseAddress, size: compressed.count, pos: 0)
      let left = ZSTD_compressStream2(stream, &outBuffer, &inBuffer, end ? ZSTD_e_end : ZSTD_e_continue)
      if ZSTD_isError(left) != 0 { throw OutputError(path: name, reason: "compression failed") }
      if outBuffer.pos > 0 {
        let output = UnsafeRawBufferPointer(rebasing: compressed[0..<outBuffer.pos])
        compressedCRC = StateFile.crc(compressedCRC, output)
        try DescriptorWriting.writeAll(output, to: descriptor, name: name)
      }
      if end ? left == 0 : inBuffer.pos == inBuffer.size { return }
    }
  }

  private func write(_ bytes: [UInt8]) throws(OutputError) {
    var failure: OutputError?
    bytes.withUnsafeBytes { raw in
      do throws(OutputError) { try DescriptorWriting.writeAll(raw, to: descriptor, name: name) } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }
}
