/// Keeps one winner per transaction id for `--dedupe` (the ledger seed's "same
/// id: show the most recent"): the latest instant, and on a tie the one later
/// in the input.
///
/// A streaming table: offer records in input order; it keeps, per distinct
/// id, the winner's instant, its input position and a small `Payload` (what
/// the caller needs to know about the winner later), so memory grows with
/// the number of distinct ids, not with the number of records. Ids are
/// compared byte-wise as UTF-8.
struct LatestPerID<Payload> {
  /// The current winner of one id.
  struct Winner {
    var instant: Timestamp
    var position: Int
    var payload: Payload
  }

  /// The winners so far, by id.
  private(set) var winners: [[UInt8]: Winner] = [:]
  /// Records offered so far.
  private(set) var offered = 0

  init() {}

  /// Offers a record with `position` greater than every earlier offer's; it
  /// becomes its id's winner when its instant is not earlier than the
  /// current winner's. Returns whether it did.
  ///
  /// - Complexity: amortised O(length of the id).
  @discardableResult
  mutating func offer(id: [UInt8], instant: Timestamp, position: Int, payload: Payload) -> Bool {
    offered += 1
    if let current = winners[id], instant.compareInstant(current.instant) < 0 { return false }
    winners[id] = Winner(instant: instant, position: position, payload: payload)
    return true
  }

  /// Whether the record at `position` is its id's winner.
  func isWinner(id: [UInt8], position: Int) -> Bool {
    winners[id]?.position == position
  }

  /// Records offered that lost to a later one with the same id.
  var duplicates: Int { offered - winners.count }
}

extension LatestPerID: Sendable where Payload: Sendable {}
extension LatestPerID.Winner: Sendable where Payload: Sendable {}
