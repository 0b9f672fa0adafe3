/// The accounts whose report changed tonight (`--changed-only`): those that
/// a per-account run with `NightlyState.changedOnly` writes.
///
/// An account is unchanged when tonight's winners of that account exactly
/// replace records of the previous state with byte-identical state payloads
/// (the same night folded twice, a re-sent identical record), and changed
/// otherwise: a new transaction, a replacement that differs in any field
/// the state keeps (a PENDING that became COMPLETED, a correction), a first
/// night's every account. The reports depend only on the set of winners,
/// never on their order, so an unchanged account's report is the same bytes
/// as last night's; a changed one's may still be (a change no report shows):
/// the test errs on the side of writing an account.
package final class ChangedAccounts: Sendable {
  /// The changed accounts' ids, as bytes.
  package let accounts: Set<[UInt8]>

  init(_ accounts: Set<[UInt8]>) { self.accounts = accounts }

  /// How many accounts changed.
  package var count: Int { accounts.count }

  /// Whether `account` changed tonight.
  package func contains(_ account: [UInt8]) -> Bool { accounts.contains(account) }

  /// Whether `account` changed tonight.
  package func contains(_ account: String) -> Bool { accounts.contains(Array(account.utf8)) }
}

/// State payloads kept end to end in one buffer, for `findChangedAccounts`.
struct PayloadList {
  private var bytes: [UInt8] = []
  private var ranges: [Range<Int>] = []

  mutating func append(_ payload: UnsafeRawBufferPointer) {
    ranges.append(bytes.count..<bytes.count + payload.count)
    bytes.append(contentsOf: payload)
  }

  /// Calls `body` with each payload of `a` or `b` that the other does not
  /// match, counting repeats: what is left when equal payloads pair off.
  static func forEachUnmatched(_ a: PayloadList, _ b: PayloadList, _ body: (UnsafeRawBufferPointer) -> Void) {
    a.bytes.withUnsafeBytes { left in
      b.bytes.withUnsafeBytes { right in
        let leftOrder = a.sortedRanges(in: left)
        let rightOrder = b.sortedRanges(in: right)
        var i = 0
        var j = 0
        while i < leftOrder.count || j < rightOrder.count {
          let order =
            i == leftOrder.count
            ? 1
            : j == rightOrder.count
              ? -1
              : ByteOrder.compare(
                UnsafeRawBufferPointer(rebasing: left[leftOrder[i]]),
                UnsafeRawBufferPointer(rebasing: right[rightOrder[j]]))
          if order == 0 {
            i += 1
            j += 1
          } else if order < 0 {
            body(UnsafeRawBufferPointer(rebasing: left[leftOrder[i]]))
            i += 1
          } else {
            body(UnsafeRawBufferPointer(rebasing: right[rightOrder[j]]))
            j += 1
          }
        }
      }
    }
  }

  private func sortedRanges(in raw: UnsafeRawBufferPointer) -> [Range<Int>] {
    ranges.sorted {
      ByteOrder.compare(UnsafeRawBufferPointer(rebasing: raw[$0]), UnsafeRawBufferPointer(rebasing: raw[$1])) < 0
    }
  }
}
