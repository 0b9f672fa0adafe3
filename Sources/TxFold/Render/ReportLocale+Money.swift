/// Amounts with their currency, as a banking app in this language shows them.
///
/// | locale | credit     | debit       | CHF           | points (`PBP`) |
/// |--------|------------|-------------|---------------|----------------|
/// | en     | `€7.50`    | `-€7.50`    | `CHF 7.50`    | `PBP 120`      |
/// | fr     | `7,50 €`   | `-7,50 €`   | `7,50 CHF`    | `120 PBP`      |
/// | de, es | `7,50 €`   | `-7,50 €`   | `7,50 CHF`    | `120 PBP`      |
/// | nl     | `€ 7,50`   | `€ -7,50`   | `CHF 7,50`    | `PBP 120`      |
///
/// The space between number and symbol is U+00A0 NO-BREAK SPACE, as in
/// CLDR, so a line never breaks inside an amount; English puts it only after
/// a symbol that ends in a letter (`CHF 7.50`, but `€7.50`). Fraction digits
/// are padded with zeros to the currency's ISO 4217 minor units (`7.5` EUR →
/// `7.50`, JPY none, KWD three) and never rounded: an amount written with
/// more digits shows them all. A currency the table does not know keeps its
/// digits as written and shows its code.
extension ReportLocale {
  /// Where the currency goes relative to the number.
  enum CurrencyPlacement {
    /// Before the number, the sign before the symbol (`-€7.50`, English).
    case leading
    /// Before the number and a space, the sign after them (`€ -7,50`, Dutch).
    case leadingSpaced
    /// After the number and a space (`-7,50 €`, French, German, Spanish).
    case trailing
  }

  var currencyPlacement: CurrencyPlacement {
    switch identifier {
    case "en": return .leading
    case "nl": return .leadingSpaced
    default: return .trailing
    }
  }

  private static let noBreakSpace: [UInt8] = Array("\u{00A0}".utf8)

  /// The amount in this language with its currency, e.g. `€1,919.95` in
  /// English or `1 919,95 €` in French (see the extension's notes).
  public func formatMoney(_ amount: ExactDecimal, currency: String) -> String {
    String(decoding: moneyText(amount, currency: currency).bytes, as: UTF8.self)
  }

  /// The amount with its own sign.
  func moneyText(_ amount: ExactDecimal, currency: String) -> MoneyText {
    moneyText(magnitudeOf: amount, currency: currency, negative: amount.isNegative)
  }

  /// The magnitude of `amount`, shown negative when `negative` (and not zero):
  /// the group report shows a debit's magnitude as a negative amount.
  ///
  /// Works on the formatted text rather than negating the value, so no
  /// amount, however large, can overflow here.
  func moneyText(magnitudeOf amount: ExactDecimal, currency: String, negative: Bool) -> MoneyText {
    moneyText(magnitudeOf: amount, currency: currency, sign: negative ? .minus : nil)
  }

  /// The magnitude of `amount` with `sign` (`-`, or `+` in html) where this
  /// language puts a minus, unless the amount is zero: `+€7.50`, `+7,50 €`, `€ +7,50`.
  func moneyText(magnitudeOf amount: ExactDecimal, currency: String, sign: UInt8?) -> MoneyText {
    // Built straight into the two arrays the text keeps, with room reserved:
    // the report writes one for every kept member, and the intermediate
    // arrays this used to make were a tenth of a text report's run.
    var number: [UInt8] = []
    number.reserveCapacity(48)
    appendNumber(amount, to: &number)
    let digitsStart = amount.isNegative ? 1 : 0
    let sign = amount.isZero ? nil : sign
    // Split at the decimal separator; pad the fraction to the minor units.
    let integerEnd = amount.scale > 0 ? number.count - Int(amount.scale) - 1 : number.count
    let integer = number[digitsStart..<max(digitsStart, integerEnd)]
    let padding = CurrencyDisplay.minorUnits(of: currency).map { max(0, $0 - Int(amount.scale)) } ?? 0
    var text = MoneyText()
    text.head.reserveCapacity(integer.count + 16)
    text.tail.reserveCapacity(number.count - integerEnd + padding + 16)
    func appendFraction() {
      text.tail.append(contentsOf: number[max(digitsStart, integerEnd)...])
      if padding > 0 {
        if integerEnd >= number.count { text.tail.append(decimalSeparator) }
        text.tail.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: padding))
      }
    }
    func appendInteger() {
      if integer.isEmpty { text.head.append(UInt8(ascii: "0")) } else { text.head.append(contentsOf: integer) }
    }
    func appendSymbol(to bytes: inout [UInt8]) {
      if let known = CurrencyDisplay.symbol(of: currency, language: identifier) {
        bytes.append(contentsOf: known.utf8)
      } else {
        TextReportWriter.appendSanitized(currency, to: &bytes)
      }
    }
    switch currencyPlacement {
    case .leading:
      if let sign { text.head.append(sign) }
      let symbolStart = text.head.count
      appendSymbol(to: &text.head)
      if text.head.count > symbolStart, let last = text.head.last, Self.isLetter(last) {
        text.head.append(contentsOf: Self.noBreakSpace)
      }
      appendInteger()
      appendFraction()
    case .leadingSpaced:
      appendSymbol(to: &text.head)
      text.head.append(contentsOf: Self.noBreakSpace)
      if let sign { text.head.append(sign) }
      appendInteger()
      appendFraction()
    case .trailing:
      if let sign { text.head.append(sign) }
      appendInteger()
      appendFraction()
      text.tail.append(contentsOf: Self.noBreakSpace)
      appendSymbol(to: &text.tail)
    }
    return text
  }

  /// Whether a symbol ends in an ASCII letter (a code such as `CHF`), which
  /// English separates from the digits by a space.
  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }
}
