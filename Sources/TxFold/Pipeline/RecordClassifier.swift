/// Sorts the records of a chunk into accepted and rejected, the same way for
/// every job: `ChunkFolder` (group) folds the accepted ones, and
/// `TransactionReader` (list, summary) makes transactions of them. One ladder,
/// so the jobs cannot drift apart on which record is rejected, or why:
///
/// 1. what framing found wrong (too large, truncated, outside any record, …);
/// 2. records before the one that chose the input's schema (`--schema auto`);
/// 3. what decoding found wrong (missing or invalid fields, bad JSON);
/// 4. in a per-account run over reports (PSD2), a record outside any report
///    that names its account.
///
/// Every other record is accepted, with its account when the run reads one.
struct RecordClassifier {
  let rejector: RecordRejector
  let accounts: AccountSource
  let maxRecordBytes: Int
  /// The second pass of `--dedupe`: its losers are left out (or, for a pass
  /// that reads the losers, everything else), and nothing is rejected again
  /// (the first pass reported every rejection) — except, for a nightly run's
  /// state payloads, which the first pass did not all decode, a record that
  /// does not decode, which fails the run as damage (`ResultAccounting`).
  let deduplicated: Deduplicated?
  /// The records are state payloads (`ReadOptions.readsStatePayloads`), decoded by `StateRecord.decode`.
  let statePayloads: Bool

  init(options: ReadOptions, schemas: [RecordSchema]) {
    rejector = RecordRejector(options: options, schemas: schemas)
    accounts = options.accounts
    maxRecordBytes = options.limits.maxRecordBytes
    deduplicated = options.deduplicated
    statePayloads = options.readsStatePayloads
  }

  /// Classifies each record of `chunk` in order: `accepted` gets the record,
  /// its values decoded in `decoded`, and its account (`nil` when the run
  /// reads none; for `.fileName`, `fileAccount`); `rejected` gets the reason.
  /// Returns the physical lines the chunk covers (`RecordChunk.forEachRecord`).
  ///
  /// - Complexity: O(n) in the chunk's bytes; allocates only for rejections.
  @inline(__always)
  func classify(
    _ chunk: RecordChunk, decoder: RecordDecoder, file: String, fileAccount: UnsafeBufferPointer<UInt8>,
    decoded: inout DecodedRecord,
    accepted: (ChunkRecord, inout DecodedRecord, _ account: UnsafeBufferPointer<UInt8>?) -> Void,
    rejected: (RecordRejection) -> Void
  ) -> Int {
    guard let deduplicated else {
      return classify(
        chunk, decoder: decoder, file: file, fileAccount: fileAccount, decoded: &decoded, losers: nil,
        readsLosers: false, accepted: accepted, rejected: rejected)
    }
    return deduplicated.withCursor { cursor in
      withUnsafeMutablePointer(to: &cursor) { losers in
        classify(
          chunk, decoder: decoder, file: file, fileAccount: fileAccount, decoded: &decoded, losers: losers,
          readsLosers: deduplicated.readsLosers, accepted: accepted, rejected: statePayloads ? rejected : { _ in })
      }
    }
  }

  /// `classify`, leaving out the records `losers` names by their place
  /// (`Deduplicated.placeKey`), or with `readsLosers` all others, before decoding them.
  @inline(__always)
  private func classify(
    _ chunk: RecordChunk, decoder: RecordDecoder, file: String, fileAccount: UnsafeBufferPointer<UInt8>,
    decoded: inout DecodedRecord, losers: UnsafeMutablePointer<Deduplicated.Cursor>?, readsLosers: Bool,
    accepted: (ChunkRecord, inout DecodedRecord, _ account: UnsafeBufferPointer<UInt8>?) -> Void,
    rejected: (RecordRejection) -> Void
  ) -> Int {
    if readsLosers, let losers, chunk.kind == .lines {
      return classifyLosers(
        chunk, decoder: decoder, file: file, fileAccount: fileAccount, decoded: &decoded, losers: losers,
        accepted: accepted, rejected: rejected)
    }
    let undecided = chunk.undecidedRecords
    let accountFromReport = accounts == .field && decoder.schema.readsReportAccount
    let fileIndex = chunk.fileIndex
    var seen = 0
    return chunk.forEachRecord(maxRecordBytes: maxRecordBytes) { record in
      seen += 1
      if record.framing.problem != .none {
        rejected(rejector.rejection(for: record, file: file))
        return
      }
      if seen <= undecided {
        rejected(rejector.rejectionBeforeSchema(record, decoder: decoder, file: file))
        return
      }
      // A loser was accepted in the first pass, so it decodes: whether to read it is known first.
      if let losers,
        losers.pointee.isLoser(Deduplicated.placeKey(fileIndex: fileIndex, offset: record.framing.offset))
          != readsLosers
      {
        return
      }
      take(
        record, chunk: chunk, decoder: decoder, file: file, fileAccount: fileAccount,
        accountFromReport: accountFromReport, decoded: &decoded, accepted: accepted, rejected: rejected)
    }
  }

  /// `classify` for a pass that reads only the losers, of a chunk of JSON
  /// lines: only their lines are framed, found by their places (a chunk that
  /// holds none is not framed at all), and the chunk numbers no line (0):
  /// nothing is rejected in that pass.
  private func classifyLosers(
    _ chunk: RecordChunk, decoder: RecordDecoder, file: String, fileAccount: UnsafeBufferPointer<UInt8>,
    decoded: inout DecodedRecord, losers: UnsafeMutablePointer<Deduplicated.Cursor>,
    accepted: (ChunkRecord, inout DecodedRecord, _ account: UnsafeBufferPointer<UInt8>?) -> Void,
    rejected: (RecordRejection) -> Void
  ) -> Int {
    let accountFromReport = accounts == .field && decoder.schema.readsReportAccount
    let first = Deduplicated.placeKey(fileIndex: chunk.fileIndex, offset: chunk.inputOffset)
    let end = Deduplicated.placeKey(fileIndex: chunk.fileIndex, offset: chunk.inputOffset + Int64(chunk.count))
    losers.pointee.forEachLoser(from: first, before: end) { place in
      // A loser was accepted in the first pass: its line is whole and well framed.
      guard let record = chunk.lineRecord(startingAt: Int(place - first), maxRecordBytes: maxRecordBytes),
        record.framing.problem == .none
      else { return }
      take(
        record, chunk: chunk, decoder: decoder, file: file, fileAccount: fileAccount,
        accountFromReport: accountFromReport, decoded: &decoded, accepted: accepted, rejected: rejected)
    }
    return 0
  }

  /// Decodes a record framing found nothing wrong with, and hands it on with its account.
  @inline(__always)
  private func take(
    _ record: ChunkRecord, chunk: RecordChunk, decoder: RecordDecoder, file: String,
    fileAccount: UnsafeBufferPointer<UInt8>, accountFromReport: Bool, decoded: inout DecodedRecord,
    accepted: (ChunkRecord, inout DecodedRecord, _ account: UnsafeBufferPointer<UInt8>?) -> Void,
    rejected: (RecordRejection) -> Void
  ) {
    let failure =
      statePayloads
      ? StateRecord.decode(record.bytes, with: decoder, into: &decoded)
      : decoder.decode(record.bytes, impliedState: record.framing.impliedState, into: &decoded)
    if let failure {
      rejected(
        RejectionDescriber.rejection(
          for: failure, record: record.bytes, schema: decoder.schema, file: file, line: record.framing.line))
      return
    }
    switch accounts {
    case .none:
      accepted(record, &decoded, nil)
    case .fileName:
      accepted(record, &decoded, fileAccount)
    case .field where accountFromReport:
      let index = Int(record.framing.account)
      guard index >= 0, index < chunk.wrapperAccounts.count else {
        rejected(RejectionDescriber.missingReportAccount(record: record.bytes, file: file, line: record.framing.line))
        return
      }
      chunk.wrapperAccounts[index].withUnsafeBufferPointer { accepted(record, &decoded, $0) }
    case .field:
      GroupTable.withDecoded(decoded.account, record.bytes) { accepted(record, &decoded, $0) }
    }
  }
}
