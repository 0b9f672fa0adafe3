/// Merges per-account partials (`txfold group --per-account --emit partial`)
/// account by account: `txfold merge --per-account`.
///
/// Every input is one per-account partial, in account order. The merger reads
/// each header first — the settings must agree and no input may have been
/// folded twice — then walks the partials together like a merge sort, so
/// memory holds one block per input and one account's merged groups, however
/// many accounts there are. `stats` is the sum of the partials' accounting
/// once `next()` has returned `nil`.
///
/// ```swift
/// let merger = try AccountPartialMerger(paths: ["part-0.jsonl", "part-1.jsonl.gz"])
/// while let account = try merger.next() { print(account.account, account.count) }
/// ```
public final class AccountPartialMerger {
  /// The settings every partial was folded with.
  public let settings: PartialSettings
  /// The fingerprints of every input the partials were folded from.
  public let inputs: [InputFingerprint]
  /// Where the partials took accounts from: `field` or `file name`.
  public let accountSource: String
  /// The merged accounting; complete (with `accounts`) once `next()` returned `nil`.
  public private(set) var stats = RunStats()
  private let headers: [AccountPartialHeader]
  private let readers: [AccountBlockReader]
  private let merger: AccountRunMerger
  private var accounts = 0
  private var finished = false

  /// Opens every partial (`-` is standard input; gzip is detected from the
  /// content) and reads its header. Every file is checked to open before any is read.
  public convenience init(paths: [String]) throws(PartialStateError) {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.open(path: path)
      } catch {
        throw .input(error)
      }
    }
    var sources: [any ByteSource] = []
    for path in paths {
      do throws(InputError) {
        sources.append(try InputOpener.open(path: path))
      } catch {
        throw .input(error)
      }
    }
    try self.init(sources: sources)
  }

  /// Reads the header of each source, each one per-account partial.
  ///
  /// - Throws: `PartialStateError` for no input, a malformed header, settings
  ///   that differ from the first partial's, or an input folded twice.
  public init(sources: [any ByteSource]) throws(PartialStateError) {
    guard !sources.isEmpty else { throw .malformed(file: "-", line: 1, detail: "no input was given") }
    var headers: [AccountPartialHeader] = []
    var readers: [AccountBlockReader] = []
    var seen: [InputFingerprint: AccountPartialHeader] = [:]
    for source in sources {
      let reader = AccountBlockReader(source, settings: PartialSettings.readingHeader)
      let header = try reader.readHeader()
      if let first = headers.first {
        if let difference = header.settings.difference(from: first.settings) {
          throw .mismatch(
            setting: difference.setting, file: header.file, line: header.line, value: difference.mine,
            referenceFile: first.file, referenceLine: first.line, referenceValue: difference.theirs)
        }
        if header.accounts != first.accounts {
          throw .mismatch(
            setting: "accounts", file: header.file, line: header.line, value: header.accounts,
            referenceFile: first.file, referenceLine: first.line, referenceValue: first.accounts)
        }
      }
      for input in header.inputs {
        if let earlier = seen[input] {
          throw .duplicateInput(
            file: header.file, line: header.line, referenceFile: earlier.file, referenceLine: earlier.line,
            input: input)
        }
        seen[input] = header
      }
      headers.append(header)
      readers.append(reader)
    }
    // Safe because `sources` is not empty.
    let first = headers[0]
    self.headers = headers
    self.readers = readers
    settings = first.settings
    accountSource = first.accounts
    inputs = seen.keys.sorted()
    merger = try AccountRunMerger(readers: readers, memberLimit: first.settings.memberLimit)
  }

  /// The next account's report (members kept unless `members` is false), or
  /// `nil` after the last, when `stats` is complete.
  ///
  /// - Throws: `PartialStateError` for a malformed or truncated partial,
  ///   accounts out of order, or an overflowing count or total.
  public func next(members: Bool = true) throws(PartialStateError) -> AccountReport? {
    guard let account = try nextAccount() else { return nil }
    return merger.table.accountReport(account: account, groups: merger.table.groups.indices, members: members)
  }

  /// Writes the merge as one per-account partial, to `flush` as the buffer fills.
  public func writePartial<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(AccountPartialWriteError<E>) {
    var writer = AccountPartialWriter()
    writer.begin(settings: settings, inputs: inputs, accounts: accountSource)
    while true {
      let account: [UInt8]?
      do throws(PartialStateError) {
        account = try nextAccount()
      } catch {
        throw .partial(error)
      }
      do throws(E) {
        if let account {
          try writer.write(account: account, table: merger.table, groups: merger.table.groups.indices, flush: flush)
        } else {
          try writer.finish(stats: stats, flush: flush)
          return
        }
      } catch {
        throw .output(error)
      }
    }
  }

  /// Merges the next account into `merger.table`; at the end, checks every
  /// partial's `stats` line and adds them up.
  private func nextAccount() throws(PartialStateError) -> [UInt8]? {
    guard !finished else { return nil }
    if let account = try merger.nextAccount() {
      accounts += 1
      return account
    }
    finished = true
    var total = RunStats()
    for (reader, header) in zip(readers, headers) {
      try total.add(try reader.finish(hasInputs: !header.inputs.isEmpty))
    }
    total.accounts = accounts
    stats = total
    return nil
  }
}

/// Why writing a merged per-account partial stopped: the partials could not
/// be read or merged, or the output failed.
public enum AccountPartialWriteError<Output: Error>: Error {
  /// A partial or a spill run could not be read, or did not merge.
  case partial(PartialStateError)
  /// `flush` failed.
  case output(Output)
}

extension AccountBlockReader: AccountBlockSource {
  func mergeNextGroup(into table: GroupTable) throws(PartialStateError) {
    let group = try nextGroup()
    do throws(PartialGroup.MergeError) {
      try table.merge(group)
    } catch {
      throw .overflow(what: error.what)
    }
  }
}
