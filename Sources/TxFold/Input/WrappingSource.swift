/// A source that reads through another one (to count, copy or stop its
/// bytes): its name, stored bytes and stored size are the other source's.
protocol WrappingSource: ByteSource {
  /// The source read through.
  var source: any ByteSource { get }
}

extension WrappingSource {
  var name: String { source.name }
  var storedBytesRead: Int64 { source.storedBytesRead }
  var storedSize: Int64? { source.storedSize }
}
