import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Terminal {
  /// The line width a chart should fill: `COLUMNS` when set to a positive
  /// number, else the terminal's width when `fileDescriptor` is one, else 80.
  static func width(fileDescriptor: Int32?) -> Int {
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
      return columns
    }
    if let fileDescriptor, isatty(fileDescriptor) == 1 {
      var size = winsize()
      if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
    }
    return 80
  }
}
