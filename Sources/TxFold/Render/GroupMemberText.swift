/// A kept member as the `json` group object writes it: its texts as UTF-8
/// bytes where they lie (a table's member text, or a `String`'s storage),
/// valid for the call they are passed to.
///
/// Bytes from a table are not always valid UTF-8 (a damaged partial's may
/// not be); the writer repairs them as `String(decoding:as:)` does.
struct GroupMemberText {
  var id: UnsafeBufferPointer<UInt8>
  var description: UnsafeBufferPointer<UInt8>?
  var currency: UnsafeBufferPointer<UInt8>
  var amount: ExactDecimal
  var instant: Timestamp
  /// The three strings as they lie together, when they do (a table's
  /// member text: id, currency, description): one check that they are
  /// plain text stands for three.
  var together: UnsafeBufferPointer<UInt8>? = nil
}
