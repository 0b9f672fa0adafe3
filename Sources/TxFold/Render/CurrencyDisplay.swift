/// What the text reports know about a currency: its ISO 4217 minor units and
/// the symbol a banking app shows for it.
///
/// Only presentation uses this table; sums and the machine formats never
/// depend on it. A code that is not in it (PAYBACK's points `PBP`, a typo in
/// an export) is shown as written: its digits unpadded, its code as symbol.
enum CurrencyDisplay {
  /// ISO 4217 minor units of the codes whose digits differ from 2.
  private static let nonTwoMinorUnits: [String: Int] = [
    "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
    "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
    "CLF": 4, "UYW": 4,
  ]

  /// ISO 4217 codes with two minor units (the common ones; others are shown as written).
  private static let twoMinorUnits: Set<String> = [
    "AED", "ARS", "AUD", "BAM", "BGN", "BRL", "CAD", "CHF", "CNY", "COP", "CZK", "DKK", "EGP", "EUR", "GBP",
    "GEL", "HKD", "HRK", "HUF", "IDR", "ILS", "INR", "KZT", "MAD", "MXN", "MYR", "NOK", "NZD", "PEN", "PHP",
    "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SEK", "SGD", "THB", "TRY", "TWD", "UAH", "USD", "ZAR",
  ]

  /// The currency's minor units, or `nil` for a code this table does not know.
  static func minorUnits(of code: String) -> Int? {
    if let digits = nonTwoMinorUnits[code] { return digits }
    return twoMinorUnits.contains(code) ? 2 : nil
  }

  /// The symbol shown for `code` in a language: `€`, `$` (`US$` outside
  /// English, where a bare `$` could be any dollar), `£`, `¥`; every other
  /// code, `CHF` included, as its code.
  static func symbol(of code: String, language: String) -> String? {
    switch code {
    case "EUR": return "€"
    case "USD": return language == "en" ? "$" : "US$"
    case "GBP": return "£"
    case "JPY": return "¥"
    default: return nil
    }
  }
}
