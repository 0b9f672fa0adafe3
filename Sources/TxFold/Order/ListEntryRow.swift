/// What a parallel list entry's row shows besides its instant and id, read
/// back from the row (`ListEntryLayout.row`) for the tie-break
/// (`TransactionOrder.compareShown`): only two entries with the same account,
/// instant and id are ever read so, never the others.
///
/// The row is one the list writers rendered in this process: a `csv` row
/// (`id,instant,date,state,creditDebitIndicator,amount,currency,fee,total,description,category,counterparty`
/// and CRLF; a cell with `,`, `"`, CR or LF quoted, `"` doubled) or a `json`
/// object (`{"id":…,"instant":"…",…}`, every value a string, escaped as
/// `JSONEscaping` writes: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, `\u00XX`).
/// What a csv row cannot tell — whether an optional text is absent or empty,
/// whether a leading `'` is the text's or the formula neutralisation's — the
/// entry's marks say (`ListEntryLayout.textMarks`); the amount, the fee, the
/// currency and the indicator come from the entry's header.
struct ListEntryRow: ListTieFields {
  var writtenInstant = RowText()
  var state = RowText()
  var isCredit: Bool
  var amount: ExactDecimal
  var currency: RowText
  var fee: ExactDecimal?
  var description: RowText?
  var category: RowText?
  var counterparty: RowText?

  /// The row of `entry`; `nil` when its payload is not a row (a per-account summary's key).
  init?(_ entry: UnsafeRawPointer) {
    let flags = ListEntryLayout.flags(entry)
    guard flags & (ListEntryLayout.csvRow | ListEntryLayout.jsonRow) != 0 else { return nil }
    isCredit = flags & ListEntryLayout.credit != 0
    amount = ListEntryLayout.amount(entry)
    fee = ListEntryLayout.fee(entry)
    currency = RowText(ListEntryLayout.currency(entry), escaping: .none)
    let row = ListEntryLayout.row(entry)
    if flags & ListEntryLayout.csvRow != 0 {
      readCSV(row, marks: ListEntryLayout.textMarks(entry))
    } else {
      readJSON(row)
    }
  }

  /// The cells of a csv row: instant (1), state (3), description (9), category (10), counterparty (11).
  private mutating func readCSV(_ row: UnsafeRawBufferPointer, marks: UInt8) {
    var index = 0
    for cell in 0..<12 {
      var start = index
      let end: Int
      var quoted = false
      if index < row.count && row[index] == .quote {
        quoted = true
        start += 1
        index += 1
        while index < row.count {
          if row[index] == .quote {
            if index + 1 < row.count && row[index + 1] == .quote {
              index += 2
              continue
            }
            break
          }
          index += 1
        }
        end = min(index, row.count)
        index += 1
      } else {
        while index < row.count && row[index] != .comma && row[index] != .carriageReturn { index += 1 }
        end = index
      }
      index += 1
      func text(neutralised: UInt8) -> RowText {
        // The neutralising `'` comes first, inside the quotes of a quoted cell.
        let skip = marks & neutralised != 0 && end > start ? 1 : 0
        return RowText(UnsafeRawBufferPointer(rebasing: row[(start + skip)..<end]), escaping: quoted ? .csv : .none)
      }
      switch cell {
      case 1: writtenInstant = text(neutralised: 0)
      case 3: state = text(neutralised: ListEntryLayout.neutralisedState)
      case 9:
        if marks & ListEntryLayout.hasDescription != 0 {
          description = text(neutralised: ListEntryLayout.neutralisedDescription)
        }
      case 10:
        if marks & ListEntryLayout.hasCategory != 0 {
          category = text(neutralised: ListEntryLayout.neutralisedCategory)
        }
      case 11:
        if marks & ListEntryLayout.hasCounterparty != 0 {
          counterparty = text(neutralised: ListEntryLayout.neutralisedCounterparty)
        }
      default: break
      }
      if index >= row.count { break }
    }
  }

  private static let instantKey = Array("instant".utf8)
  private static let stateKey = Array("state".utf8)
  private static let descriptionKey = Array("description".utf8)
  private static let categoryKey = Array("category".utf8)
  private static let counterpartyKey = Array("counterparty".utf8)

  /// The values of a json object: `"key":"value"` pairs, keys without escapes.
  private mutating func readJSON(_ row: UnsafeRawBufferPointer) {
    var index = 1
    while index < row.count && row[index] == .quote {
      let keyStart = index + 1
      index = keyStart
      while index < row.count && row[index] != .quote { index += 1 }
      let key = UnsafeRawBufferPointer(rebasing: row[keyStart..<min(index, row.count)])
      // The key's closing quote, the colon and the value's opening quote.
      index += 3
      let valueStart = min(index, row.count)
      while index < row.count && row[index] != .quote { index += row[index] == .backslash ? 2 : 1 }
      let value = RowText(UnsafeRawBufferPointer(rebasing: row[valueStart..<min(index, row.count)]), escaping: .json)
      // The value's closing quote, then `,` or `}`.
      index += 2
      if key.elementsEqual(Self.instantKey) {
        writtenInstant = value
      } else if key.elementsEqual(Self.stateKey) {
        state = value
      } else if key.elementsEqual(Self.descriptionKey) {
        description = value
      } else if key.elementsEqual(Self.categoryKey) {
        category = value
      } else if key.elementsEqual(Self.counterpartyKey) {
        counterparty = value
      }
    }
  }
}

/// A text of a rendered row, handed out decoded: as it lies, a quoted csv
/// cell's content (`""` is one `"`), or a json string's content (escapes
/// decoded as `JSONEscaping` writes them).
struct RowText: Sequence, IteratorProtocol {
  enum Escaping {
    case none
    case csv
    case json
  }

  private let bytes: UnsafeRawBufferPointer
  private let escaping: Escaping
  private var index = 0

  init(_ bytes: UnsafeRawBufferPointer, escaping: Escaping) {
    self.bytes = bytes
    self.escaping = escaping
  }

  /// An empty text.
  init() { self.init(UnsafeRawBufferPointer(start: nil, count: 0), escaping: .none) }

  mutating func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    let byte = bytes[index]
    index += 1
    switch escaping {
    case .none:
      return byte
    case .csv:
      if byte == .quote { index += 1 }
      return byte
    case .json:
      guard byte == .backslash, index < bytes.count else { return byte }
      let escape = bytes[index]
      index += 1
      switch escape {
      case .lowerN: return .newline
      case .lowerR: return .carriageReturn
      case .lowerT: return .tab
      case .lowerB: return 0x08
      case .lowerF: return 0x0C
      case .lowerU:
        // `\u00XX`: a control character, the last two hex digits.
        var value: UInt8 = 0
        for _ in 0..<4 where index < bytes.count {
          value = value &<< 4 | Self.hexValue(bytes[index])
          index += 1
        }
        return value
      default:
        // `\"`, `\\` and `\/` stand for themselves.
        return escape
      }
    }
  }

  private static func hexValue(_ digit: UInt8) -> UInt8 {
    switch digit {
    case .zero ... .nine: return digit &- .zero
    case .lowerA ... .lowerF: return digit &- .lowerA &+ 10
    default: return digit &- .upperA &+ 10
    }
  }
}
