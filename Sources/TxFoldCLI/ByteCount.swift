import ArgumentParser

/// Parses sizes given on the command line: `1048576`, `512K`, `4MiB`, `64KB`, `2g`.
///
/// A number of bytes, optionally followed by a unit, case-insensitive:
/// `B`; `K`, `KiB`, `M`, `MiB`, `G`, `GiB` are powers of 1024; `KB`, `MB`, `GB`
/// are powers of 1000, as in DuckDB and GNU coreutils. A size that does not fit
/// in an `Int` is an error, never a trap.
enum ByteCount {
  /// Why a size was refused, as the end of a sentence naming the option.
  enum ParseError: Error, Equatable {
    case empty
    case noDigits(String)
    case unknownUnit(String)
    case tooLarge

    var detail: String {
      switch self {
      case .empty: return "it is empty"
      case .noDigits(let text): return "'\(text)' does not start with a whole number of bytes"
      case .unknownUnit(let unit):
        return
          "'\(unit)' is not a unit (use B, K/KiB, M/MiB, G/GiB for powers of 1024, or KB, MB, GB for powers of 1000)"
      case .tooLarge: return "it is too large"
      }
    }
  }

  /// Multipliers by lower-cased unit.
  static let units: [String: Int] = [
    "": 1, "b": 1,
    "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
    "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000,
  ]

  /// The size `text` gives, in bytes.
  static func parse(_ text: String) throws(ParseError) -> Int {
    guard !text.isEmpty else { throw .empty }
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { throw .noDigits(text) }
    let unit = String(text.dropFirst(digits.count))
    guard let multiplier = units[unit.lowercased()] else { throw .unknownUnit(unit) }
    guard let value = Int(digits) else { throw .tooLarge }
    let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
    guard !overflow else { throw .tooLarge }
    return bytes
  }

  /// The size `text` gives, within `range`, or a usage error that names `option`,
  /// the allowed sizes (`wanted`, e.g. "a size from 1 byte to 1GiB") and what is wrong:
  /// `--memory-limit must be a size of at least 1 byte, not 'lots': 'lots' does not start with a whole number of bytes.`
  static func parse(_ text: String, option: String, range: ClosedRange<Int>, wanted: String) throws -> Int {
    let bytes: Int
    do throws(ParseError) {
      bytes = try parse(text)
    } catch {
      throw ValidationError("\(option) must be \(wanted), not '\(text)': \(error.detail).")
    }
    guard range.contains(bytes) else {
      throw ValidationError("\(option) must be \(wanted), not '\(text)' (\(bytes) bytes).")
    }
    return bytes
  }
}
