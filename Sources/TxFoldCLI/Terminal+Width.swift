import Foundation
import TxFold

extension Terminal {
  /// The line width a chart should fill: `COLUMNS` when set to a positive
  /// number, else the terminal's width when `fileDescriptor` is one, else 80.
  static func width(fileDescriptor: Int32?) -> Int {
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
      return columns
    }
    if let fileDescriptor, SystemCalls.isTerminal(fileDescriptor),
      let columns = SystemCalls.terminalColumns(fileDescriptor)
    {
      return columns
    }
    return 80
  }
}
