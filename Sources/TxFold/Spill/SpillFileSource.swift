/// A spill file read as an input (`--dedupe`'s copy of an input that cannot
/// be read twice), front to back.
final class SpillFileSource: ByteSource {
  let file: SpillFile
  /// The name in messages: the file's, or the input it is a copy of.
  let name: String
  private var offset: Int64 = 0
  init(_ file: SpillFile, name: String? = nil) {
    self.file = file
    self.name = name ?? file.name
  }
  var storedBytesRead: Int64 { offset }
  var storedSize: Int64? { file.size }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let wanted = Int(min(Int64(buffer.count), file.size - offset))
    guard wanted > 0 else { return 0 }
    do throws(SpillError) {
      let read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
      offset += Int64(read)
      return read
    } catch {
      throw .readFailed(path: file.name, reason: error.description)
    }
  }
}
