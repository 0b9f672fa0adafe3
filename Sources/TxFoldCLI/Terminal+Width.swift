import Foundation
import TxFold

extension Terminal {
  /// The line width a chart should fill: `COLUMNS` when set to a positive
  /// number, else the terminal's width when `fileDescriptor` is one, else 80;
  /// at most `TextReportOptions.maximumWidth`, since the environment is
  /// anyone's to set and a chart line is as wide as it says.
  static func width(fileDescriptor: Int32?) -> Int {
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
      return min(columns, TextReportOptions.maximumWidth)
    }
    if let fileDescriptor, SystemCalls.isTerminal(fileDescriptor),
      let columns = SystemCalls.terminalColumns(fileDescriptor)
    {
      return min(columns, TextReportOptions.maximumWidth)
    }
    return 80
  }
}
