/// Parses a POSIX TZ string as TZif footers hold it (RFC 8536 §3.3, with the
/// version 3 extensions: transition times from −167 to 167 hours):
/// `std offset [dst [offset] [,start[/time],end[/time]]]`, names either
/// alphabetic (`CET`) or quoted (`<+0530>`).
enum POSIXRuleParser {
  static func parse(_ text: [UInt8]) -> POSIXZoneRule? {
    var scanner = Scanner(text: text)
    guard scanner.name(), let standard = scanner.offset(maxHours: 24) else { return nil }
    var rule = POSIXZoneRule(standardOffset: Int32(-standard), dst: nil)
    if scanner.atEnd { return rule }
    guard scanner.name() else { return nil }
    var dstOffset = Int32(-standard) + 3600
    if let peek = scanner.peek, peek != UInt8(ascii: ",") {
      guard let parsed = scanner.offset(maxHours: 24) else { return nil }
      dstOffset = Int32(-parsed)
    }
    // Without rules POSIX leaves the dates to the implementation; the US rules are the usual default.
    var start = POSIXZoneRule.Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    var end = POSIXZoneRule.Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    if !scanner.atEnd {
      guard scanner.consume(UInt8(ascii: ",")), let parsedStart = scanner.change(), scanner.consume(UInt8(ascii: ",")),
        let parsedEnd = scanner.change(), scanner.atEnd
      else { return nil }
      start = parsedStart
      end = parsedEnd
    }
    guard dstOffset.magnitude <= UInt32(TZifParser.maxOffset) else { return nil }
    rule.dst = POSIXZoneRule.DaylightSaving(offset: dstOffset, start: start, end: end)
    return rule
  }

  struct Scanner {
    let text: [UInt8]
    var position = 0

    var atEnd: Bool { position >= text.count }
    var peek: UInt8? { atEnd ? nil : text[position] }

    mutating func consume(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      position += 1
      return true
    }

    /// A zone abbreviation: three or more letters, or `<...>` of letters, digits, `+` and `-`.
    mutating func name() -> Bool {
      if consume(UInt8(ascii: "<")) {
        let begin = position
        while let byte = peek, byte != UInt8(ascii: ">") {
          guard byte.isASCIIAlphanumeric || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
          position += 1
        }
        return position - begin >= 3 && consume(UInt8(ascii: ">"))
      }
      let begin = position
      while let byte = peek, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { position += 1 }
      return position - begin >= 3
    }

    /// A number of digits up to `limit`.
    mutating func number(upTo limit: Int) -> Int? {
      var value = 0
      var digits = 0
      while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        position += 1
      }
      return digits > 0 && value <= limit ? value : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (POSIX's sign: west positive).
    mutating func offset(maxHours: Int) -> Int? {
      var sign = 1
      if consume(UInt8(ascii: "-")) { sign = -1 } else { _ = consume(UInt8(ascii: "+")) }
      guard let hours = number(upTo: maxHours) else { return nil }
      var seconds = hours * 3600
      if consume(UInt8(ascii: ":")) {
        guard let minutes = number(upTo: 59) else { return nil }
        seconds += minutes * 60
        if consume(UInt8(ascii: ":")) {
          guard let secs = number(upTo: 59) else { return nil }
          seconds += secs
        }
      }
      return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then an optional `/time`.
    mutating func change() -> POSIXZoneRule.Change? {
      let day: POSIXZoneRule.Change.Day
      if consume(UInt8(ascii: "J")) {
        guard let number = number(upTo: 365), number >= 1 else { return nil }
        day = .julianNoLeap(number)
      } else if consume(UInt8(ascii: "M")) {
        guard let month = number(upTo: 12), month >= 1, consume(UInt8(ascii: ".")), let week = number(upTo: 5),
          week >= 1, consume(UInt8(ascii: ".")), let weekday = number(upTo: 6)
        else { return nil }
        day = .monthWeekDay(month: month, week: week, weekday: weekday)
      } else {
        guard let number = number(upTo: 365) else { return nil }
        day = .zeroBased(number)
      }
      var time = 7200
      if consume(UInt8(ascii: "/")) {
        guard let parsed = offset(maxHours: 167) else { return nil }
        time = parsed
      }
      return POSIXZoneRule.Change(day: day, time: Int32(time))
    }
  }
}

extension UInt8 {
  fileprivate var isASCIIAlphanumeric: Bool {
    (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
      || ((self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z"))
  }
}
