import TxFold

/// What `TransactionGenerator` makes: how many records, from which seed.
public struct GeneratorOptions: Sendable {
  /// Number of records (lines) to generate; zero or less gives an empty dump.
  public var count: Int
  /// Seed of the pseudo-random sequence: the same seed and count give byte-identical output.
  public var seed: UInt64
  /// How many accounts the records are spread over (`arrangementId`, see ``TransactionGenerator``);
  /// zero writes no `arrangementId`, so the bytes are those of a one-customer export.
  public var accounts: Int

  /// The order of the lines (`txfold gen --order`); `.day` by default.
  public var order: GeneratorOrder
  /// The share of the records sent again later in the dump with the same id
  /// (`txfold gen --resend RATE`), in millionths: `200_000` is 0.2. 0 (the default) sends
  /// each record once; at most 1,000,000 (every record twice).
  public var resendPerMillion: Int

  /// The schema the records are written in (`txfold gen --schema`); `.backbase` by default.
  public var schema: GeneratorSchema

  /// The most accounts a dump can have: account ids are `A` and ten digits.
  public static let maximumAccounts = AccountDraw.maximumAccounts

  /// Options for `count` records from `seed`, over `accounts` accounts (none by default), in
  /// `order`, with `resendPerMillion` millionths of them sent twice (none by default), written
  /// in `schema`.
  public init(
    count: Int, seed: UInt64 = 42, accounts: Int = 0, order: GeneratorOrder = .day, resendPerMillion: Int = 0,
    schema: GeneratorSchema = .backbase
  ) {
    self.count = count
    self.seed = seed
    self.accounts = accounts
    self.order = order
    self.resendPerMillion = resendPerMillion
    self.schema = schema
  }

  /// How many records are sent again: ⌊`count` × rate⌋, exactly (integer arithmetic on the
  /// rate's millionths).
  public var resendCount: Int {
    let count = max(self.count, 0)
    let rate = min(max(resendPerMillion, 0), 1_000_000)
    let (high, low) = count.multipliedFullWidth(by: rate)
    return 1_000_000.dividingFullWidth((high, low)).quotient
  }

  /// A rate written as a decimal fraction from 0 to 1 with at most six decimals (`0.2`,
  /// `0.05`, `1`), or a percentage (`20%`), in millionths; `nil` for anything else.
  public static func resendPerMillion(parsing text: String) -> Int? {
    var body = Substring(text)
    var scale = 1_000_000
    if body.hasSuffix("%") {
      body = body.dropLast()
      scale = 10_000
    }
    let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty || parts.count == 2,
      whole.allSatisfy({ $0.isASCII && $0.isNumber }), whole.count <= 7
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else {
      return nil
    }
    // Digits beyond what `scale` can hold must be zeros: the rate is exact or refused.
    let digits = scale == 1_000_000 ? 6 : 4
    guard fraction.dropFirst(digits).allSatisfy({ $0 == "0" }) else { return nil }
    var value = (Int(whole) ?? 0) * scale
    var unit = scale / 10
    for digit in fraction.prefix(digits) {
      value += Int(digit.wholeNumberValue ?? 0) * unit
      unit /= 10
    }
    return value <= 1_000_000 ? value : nil
  }
}

/// The schema a generated dump is written in (`txfold gen --schema`): the same transactions
/// (ids, instants, amounts, indicators, descriptions, categories, counterparties, as far as
/// the schema has a field for them) in that schema's field names and shapes, one record per
/// line, as `--schema auto` reads it. What each schema keeps is in Documentation/Guide.md,
/// "`txfold gen`".
public enum GeneratorSchema: String, Sendable, CaseIterable {
  /// Backbase records: every drawn fact, the account (`arrangementId`) included.
  case backbase
  /// PAYBACK items: no state or account field (read `COMPLETED`), a signed amount.
  case payback
  /// The ledger: no state, currency, category, counterparty or account field; a signed amount.
  case ledger
  /// Swile transactions: no id, state or account field (ids are positions); a signed amount.
  case swile
  /// Berlin Group PSD2 transactions: no category; the state and account are a report's, which
  /// a line has not (read `COMPLETED`, no account); a signed string amount.
  case psd2

  /// Whether a record can name its account (`txfold gen --accounts`).
  public var carriesAccount: Bool { self == .backbase }
  /// Whether a record has an id of its own, so that a re-send (`--resend`) is recognisably one.
  public var carriesID: Bool { self != .swile }
}

/// The order of the lines of a generated dump (`txfold gen --order`).
///
/// The records are the same in every order — the same bytes, only arranged differently — so
/// every order gives the same report: only the cost of reading them differs.
public enum GeneratorOrder: String, Sendable, CaseIterable {
  /// As a one-customer export or an append-only log: record `i` of `n` at `i/n` of the span
  /// (times rise with the line number, with a jitter of ±3 hours), so neighbours share a day.
  case day
  /// As a bank-wide export: sorted by account (`arrangementId`, byte-wise, which is numeric
  /// order), each account's records in time order; the day jumps at every account.
  case account
  /// A deterministic shuffle of the whole dump (Fisher–Yates from the seed), as a merge of
  /// many sources: neighbours share nothing.
  case shuffled
}

/// A deterministic generator of synthetic dumps as JSON lines (`txfold gen`), in Backbase's
/// schema or another built-in one (``GeneratorSchema``: the same transactions in that schema's
/// fields, as far as it has them; the distribution below is described in Backbase's terms).
///
/// Every line is one Backbase record object, compact JSON ending in `\n`, always valid
/// JSON with valid calendar dates: tests that want bad records add them separately. The
/// same `GeneratorOptions` give byte-identical output on every platform: everything is
/// drawn from `SplitMix64` in a fixed order and written as bytes directly (no `Foundation`,
/// no `Double` formatting), which also makes it fast enough for benchmark inputs.
///
/// The distribution, per record (percentages are approximate, independent draws):
///
/// - **Time**: the records span the 731 days 2023-01-01 … 2024-12-31. Record `i` of `n`
///   sits at `i × span / n` plus a uniform jitter of ±3 hours (clamped to the span), so
///   times rise with the line number but neighbours are not strictly sorted, like real
///   exports. `creationTime` is written as `2019-05-15T14:28:01` (72 %), with a
///   millisecond fraction `.123` (8 %), with `Z` (6 %), with an offset `+02:00` (5 %) or
///   `+0200` (4 %) taken from a small table of real offsets, as `.000Z` (3 %), or as a
///   bare date `2019-05-15` (2 %). The offset is a suffix on the same wall-clock time, so
///   the written day is the generated day.
/// - **State**: `PENDING` only in the most recent eighth of the span (about 91 days), for
///   80 % of the records there, so about 10 % overall; `COMPLETED` otherwise.
/// - **Indicator**: `DBIT` 70 %, `CRDT` 30 %. Each picks a merchant uniformly from its
///   own table (25 debit merchants, 8 credit sources), which fixes `description`,
///   `typeGroup`, `type`, `category`, the counterparty and the amount range.
/// - **Amount**: a string magnitude; the integer part is uniform in the merchant's range
///   (0–60, 10–400, 150–2500 or 1800–6500); fraction digits 2 (65 %), 0 (15 %),
///   1 (12 %) or 3 (8 %), so `"7.5"`, `"5200"`, `"1919.95"`, `"12.345"` all occur; never
///   zero. Currency `EUR` 80 %, `USD` 8 %, `GBP` 6 %, `CHF` 4 %, `JPY` 2 % (JPY amounts
///   are a hundred times larger and whole).
/// - **id**: a random version-4 UUID string (95 %) or a JSON integer `100000 + i` (5 %);
///   ids never repeat within a dump.
/// - **description**: the merchant's (96 %), `""` (2 %) or absent (2 %). The merchant
///   tables mix plain ASCII, escapes (`\"`, `\\`, `\/`, `\t`, `\u00e9`, `\u2013`, emoji as
///   surrogate pairs like `\ud83d\ude00`) and raw UTF-8 (`Café Müller`, `Łódź`, `東京`).
/// - **category**: the merchant's string (95 %), an integer 1–40 (3 %) or absent (2 %).
///   `typeGroup` and `type` are each absent 2 % of the time.
/// - **Counterparty**: when the merchant has one (all but two do), `counterPartyName`
///   88 %, `counterPartyAccountNumber` 85 %, `counterPartyCity` 75 %,
///   `counterPartyAddress` 65 %, each independently and only where the merchant has it.
/// - **Unknown fields** the decoder must skip: `originalDescription` (half of the
///   records of merchants that have one) and one field from a table of nested values
///   (8 %): arrays, objects inside arrays, `null`, booleans, numbers, brackets and escaped
///   quotes inside strings, and a nested object with its own `"amount"` key.
/// - **Layout**: the seed's key order (90 %) or a shuffled order, with the two keys of
///   `transactionAmountCurrency` swapped half of those times (10 %); compact separators
///   (95 %) or a space after every `:` and `,` (5 %).
/// - **Account** (only with `accounts` > 0, `txfold gen --accounts N`): a first key
///   `"arrangementId":"A0000000042"` (`A` and ten digits, so byte-wise order is numeric
///   order), drawn from a second `SplitMix64` stream so that every other byte of the record
///   is the same as without accounts. The skew is a bank's: 30 % of the records go to a few
///   corporate accounts (`A0000000000` …, one per 50,000 accounts, at least one), the rest
///   to the other accounts with a cubic power law (account `k` of the tail with probability
///   about `(k + 1)^(2/3) − k^(2/3)` over `tail^(1/3)`): in a 2M-record dump over 200,000
///   accounts the 4 corporate accounts hold about 150,000 records each and the last tail
///   accounts two or three; some tail accounts may hold none, so up to N accounts appear.
public struct TransactionGenerator: Sendable {
  /// What to generate.
  public let options: GeneratorOptions
  /// The buffer size that triggers a `flush`; internal so tests can force many chunks.
  let flushThreshold: Int

  /// A generator for `options`, flushing about every 1 MiB.
  public init(options: GeneratorOptions) {
    self.init(options: options, flushThreshold: 1 << 20)
  }

  /// A generator that flushes whenever the buffer reaches `flushThreshold` bytes.
  init(options: GeneratorOptions, flushThreshold: Int) {
    self.options = options
    self.flushThreshold = max(1, flushThreshold)
  }

  /// Appends JSON lines to `buffer`, calling `flush` whenever it passes ~1 MiB and once at the end.
  ///
  /// Each call hands `flush` the buffer holding whole lines only (a chunk never splits a
  /// record). `flush` consumes the bytes; the generator empties the buffer afterwards
  /// (keeping its capacity), so whatever `flush` leaves there is discarded. The final call
  /// comes after the last record, even when it has nothing left to hand over (an empty
  /// buffer), so a writer can treat it as the end of the dump.
  ///
  /// - Complexity: O(`count`) time; memory stays at about one chunk.
  public func generate<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    if options.order != .day || options.resendCount > 0 { return try generateArranged(flush: flush) }
    let count = max(options.count, 0)
    var writer = RecordWriter(seed: options.seed, count: count, schema: options.schema)
    var accounts = AccountDraw(seed: options.seed, accounts: options.accounts)
    try writeChunked(0..<count, flush: flush) { index, buffer in
      writer.appendRecord(index: index, account: accounts.next(), to: &buffer)
    }
  }

  /// Calls `append` with each of `items` and one buffer, handing the buffer
  /// to `flush` whenever it passes the threshold (whole records only) and
  /// once at the end, as `generate(flush:)` promises.
  func writeChunked<Items: Sequence, E: Error>(
    _ items: Items, flush: (inout [UInt8]) throws(E) -> Void,
    append: (Items.Element, inout [UInt8]) -> Void
  ) throws(E) {
    var buffer: [UInt8] = []
    // A record is well under 1 KiB, so this capacity is rarely exceeded before a flush.
    buffer.reserveCapacity(min(flushThreshold, 1 << 20) + 4096)
    for item in items {
      append(item, &buffer)
      if buffer.count >= flushThreshold {
        try flush(&buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try flush(&buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}

// MARK: - Orders and re-sends

extension TransactionGenerator {
  /// What one line of an arranged dump is: enough to write it again (the record stream's
  /// state before the record, its index and account) and where it goes. 40 bytes.
  struct Line {
    /// Where the line sorts: seconds into the span (see `generateArranged`).
    var position: Int64
    /// The record stream's state before the record was drawn: restoring it redraws it.
    var state: UInt64
    /// The account number, or -1 for none.
    var account: Int64
    /// The record's index in the day-order dump.
    var index: Int32
    /// For a completing re-send, the seconds between the `PENDING` original and the
    /// `COMPLETED` copy; 0 for an original or an exact re-send.
    var delay: Int32
    /// 0 for an original, 1 for an exact re-send, 2 for a completing one.
    var kind: UInt8

    static let original: UInt8 = 0
    static let exactResend: UInt8 = 1
    static let completedResend: UInt8 = 2
  }

  /// A re-send of a `COMPLETED` record comes a day after the original (the next day's
  /// export window overlapping the previous one).
  static let exactResendLag = 86_400
  /// A `PENDING` record completes between one hour and three days after it was created.
  static let completionDelays = 3_600...(3 * 86_400)

  /// Any order but `.day`, or re-sends: the records are drawn once to learn where each line
  /// goes, the lines are arranged, then each record is drawn again from its saved state and
  /// written. Memory: one `Line` (40 bytes) per line, never the records' bytes.
  ///
  /// Where a line goes, by order:
  /// - `.day`: originals at `i × span / n` (as the streaming path writes them, so a dump
  ///   without re-sends is the same bytes), a re-send that much later (the lag or delay);
  /// - `.account`: by account, then by time (the record's own time; a re-send's time of
  ///   sending), then by index;
  /// - `.shuffled`: a Fisher–Yates shuffle of every line from a stream of its own.
  func generateArranged<E: Error>(flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    let count = max(options.count, 0)
    let resends = options.resendCount
    var writer = RecordWriter(seed: options.seed, count: count, schema: options.schema)
    var accounts = AccountDraw(seed: options.seed, accounts: options.accounts)
    // Which records are sent again (exactly `resends` of them, by selection sampling: each
    // record with probability needed / left) and when: a stream of their own, so the
    // records' bytes are those of the dump without re-sends.
    var resendRNG = SplitMix64(seed: options.seed ^ 0xBB67_AE85_84CA_A73B)
    var lines: [Line] = []
    lines.reserveCapacity(count + resends)
    var scratch: [UInt8] = []
    scratch.reserveCapacity(4096)
    var needed = resends
    for index in 0..<count {
      let state = writer.rng.state
      let account = accounts.next()
      let draft = writer.appendRecord(index: index, account: account, to: &scratch)
      scratch.removeAll(keepingCapacity: true)
      let instant = (draft.day - RecordWriter.firstDay) * 86_400 + draft.secondOfDay
      let position = options.order == .day ? RecordWriter.basePosition(index: index, count: count) : instant
      var line = Line(
        position: Int64(position), state: state, account: Int64(account ?? -1), index: Int32(truncatingIfNeeded: index),
        delay: 0, kind: Line.original)
      lines.append(line)
      if needed > 0 && resendRNG.next(below: count - index) < needed {
        needed -= 1
        if draft.pending {
          let delays = Self.completionDelays
          line.delay = Int32(delays.lowerBound + resendRNG.next(below: delays.count))
          line.kind = Line.completedResend
        } else {
          line.delay = 0
          line.kind = Line.exactResend
        }
        line.position += Int64(line.kind == Line.exactResend ? Self.exactResendLag : Int(line.delay))
        lines.append(line)
      }
    }
    switch options.order {
    case .day:
      lines.sort { ($0.position, $0.index, $0.kind) < ($1.position, $1.index, $1.kind) }
    case .account:
      lines.sort {
        ($0.account, $0.position, $0.index, $0.kind) < ($1.account, $1.position, $1.index, $1.kind)
      }
    case .shuffled:
      var shuffleRNG = SplitMix64(seed: options.seed ^ 0x3C6E_F372_FE94_F82B)
      shuffleRNG.shuffle(&lines)
    }
    try writeChunked(lines, flush: flush) { line, buffer in
      writer.rng = SplitMix64(seed: line.state)
      _ = writer.appendRecord(
        index: Int(line.index), account: line.account < 0 ? nil : Int(line.account), to: &buffer,
        completedAfter: line.kind == Line.completedResend ? Int(line.delay) : nil)
    }
  }
}

extension TransactionGenerator {
  /// The proleptic Gregorian date of a day number counted from 1970-01-01.
  static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    CalendarMath.civilFromDays(days)
  }
}

// MARK: - Accounts

/// Draws the account of each record for `txfold gen --accounts N` (the skew is described on
/// ``TransactionGenerator``). Its own random stream keeps every other field of a record
/// identical to the dump without accounts.
struct AccountDraw {
  /// Digits of an account number: `A` and ten digits cover any `accounts` the CLI accepts.
  static let digits = 10
  /// The most accounts an id of `digits` digits can name.
  static let maximumAccounts = 10_000_000_000
  /// One corporate account per this many accounts.
  static let accountsPerCorporate = 50_000
  /// The share of the records, in percent, that go to the corporate accounts.
  static let corporatePercent: UInt64 = 30

  var rng: SplitMix64
  let accounts: Int
  let corporate: Int

  init(seed: UInt64, accounts: Int) {
    // A fixed odd constant separates this stream from the record stream of the same seed.
    rng = SplitMix64(seed: seed ^ 0x6A09_E667_F3BC_C909)
    self.accounts = min(max(accounts, 0), Self.maximumAccounts)
    corporate = min(self.accounts, max(1, self.accounts / Self.accountsPerCorporate))
  }

  /// The next record's account number, or `nil` when the dump has no accounts.
  mutating func next() -> Int? {
    guard accounts > 0 else { return nil }
    let tail = accounts - corporate
    if tail == 0 || rng.next(below: 100) < Int(Self.corporatePercent) {
      return rng.next(below: corporate)
    }
    // u³ with u uniform below 2²¹ is below 2⁶³; scaled by `tail` over 2⁶³ it is an index
    // below `tail` whose density falls like k^(-2/3): a power law, in integers only.
    let u = UInt64(rng.next(below: 1 << 21))
    let cube = u * u * u
    let (high, low) = cube.multipliedFullWidth(by: UInt64(tail))
    let index = Int(high << 1 | low >> 63)
    return corporate + min(index, tail - 1)
  }
}

// MARK: - Record writing

/// Draws one record at a time and writes it as JSON bytes.
struct RecordWriter {
  /// The 731 days from 2023-01-01 through 2024-12-31, a leap year included.
  static let firstDay = 19_358  // days from 1970-01-01 to 2023-01-01
  static let dayCount: UInt64 = 731
  static let span: UInt64 = dayCount * 86_400
  /// Records at or after this offset may be `PENDING`: the most recent eighth of the span.
  static let pendingFrom: UInt64 = span - span / 8
  static let jitterSeconds = 3 * 3_600

  var rng: SplitMix64
  let count: UInt64
  /// Whose field names and shapes the records are written in.
  let schema: GeneratorSchema
  /// Scratch list of the keys of the record being written; reused to avoid an allocation per record.
  var fields: [Field] = []
  /// Whether the record being written puts a space after `:` and `,`.
  var spaced = false

  init(seed: UInt64, count: Int, schema: GeneratorSchema = .backbase) {
    rng = SplitMix64(seed: seed)
    self.count = UInt64(count)
    self.schema = schema
    fields.reserveCapacity(Field.allCases.count)
  }

  /// Draws record `index` and appends it in `schema`, with its newline, to `out`; `account`
  /// (when not `nil`, Backbase only) is written first as `arrangementId`.
  ///
  /// With `completedAfter`, the record is written as the `COMPLETED` copy of itself that
  /// many seconds later (same id and everything else; `creationTime` moved, in its style).
  /// Returns what was drawn (before any such change).
  @discardableResult
  mutating func appendRecord(index: Int, account: Int?, to out: inout [UInt8], completedAfter: Int? = nil) -> Draft {
    let drawn = draw(index: index)
    var draft = drawn
    if let delay = completedAfter {
      let instant = (draft.day - Self.firstDay) * 86_400 + draft.secondOfDay + delay
      draft.day = Self.firstDay + instant / 86_400
      draft.secondOfDay = instant % 86_400
      draft.pending = false
    }

    // Looked up once per record: each copy of a merchant retains its arrays.
    let merchant = draft.credit ? Corpus.credits[draft.merchant] : Corpus.debits[draft.merchant]
    switch schema {
    case .backbase: appendBackbase(draft, merchant: merchant, account: account, to: &out)
    case .payback: appendPayback(draft, merchant: merchant, to: &out)
    case .ledger: appendLedger(draft, merchant: merchant, to: &out)
    case .swile: appendSwile(draft, merchant: merchant, to: &out)
    case .psd2: appendPSD2(draft, merchant: merchant, to: &out)
    }
    out.append(.newline)
    return drawn
  }

  /// The record as Backbase writes it, in the key order `draw` laid out in `fields`, with
  /// `account` (when not `nil`) first as `arrangementId`.
  func appendBackbase(_ draft: Draft, merchant: Merchant, account: Int?, to out: inout [UInt8]) {
    out.append(.openBrace)
    if let account {
      appendKey(Corpus.keyArrangementID, to: &out)
      out.append(.quote)
      out.append(UInt8(ascii: "A"))
      Self.appendPadded(account, width: AccountDraw.digits, to: &out)
      out.append(.quote)
      appendSeparator(.comma, to: &out)
    }
    for position in fields.indices {
      if position > 0 { appendSeparator(.comma, to: &out) }
      appendField(fields[position], of: draft, merchant: merchant, to: &out)
    }
    out.append(.closeBrace)
  }

  /// Where record `index` of `count` sits in time before its jitter: `index × span / count`.
  static func basePosition(index: Int, count: Int) -> Int {
    let (high, low) = UInt64(index).multipliedFullWidth(by: span)
    // Cannot overflow: index < count, so the quotient is below span.
    return Int(UInt64(count).dividingFullWidth((high, low)).quotient)
  }

  // MARK: Drawing

  /// Makes every random choice of record `index`, in a fixed order.
  mutating func draw(index: Int) -> Draft {
    var draft = Draft()

    // Time first: it decides the state.
    let base = Self.basePosition(index: index, count: Int(count))
    let jitter = rng.next(below: 2 * Self.jitterSeconds + 1) - Self.jitterSeconds
    let offset = min(max(base + jitter, 0), Int(Self.span) - 1)
    draft.day = Self.firstDay + offset / 86_400
    draft.secondOfDay = offset % 86_400
    draft.millisecond = rng.next(below: 1000)
    draft.timeStyle = TimeStyle.draw(&rng)
    draft.offsetIndex = rng.next(below: Corpus.offsetsColon.count)
    draft.pending = UInt64(offset) >= Self.pendingFrom && rng.chance(percent: 80)

    draft.credit = rng.chance(percent: 30)
    draft.merchant =
      draft.credit ? rng.next(below: Corpus.credits.count) : rng.next(below: Corpus.debits.count)
    let merchant = draft.credit ? Corpus.credits[draft.merchant] : Corpus.debits[draft.merchant]

    draft.numericID = rng.chance(percent: 5)
    draft.idHigh = rng.next()
    draft.idLow = rng.next()
    draft.index = index

    let descriptionRoll = rng.next(below: 100)
    draft.description = descriptionRoll < 2 ? .absent : descriptionRoll < 4 ? .empty : .merchant
    draft.originalDescription = merchant.originalDescription != nil && rng.chance(percent: 50)
    draft.typeGroup = !rng.chance(percent: 2)
    draft.type = !rng.chance(percent: 2)
    let categoryRoll = rng.next(below: 100)
    draft.category = categoryRoll < 2 ? .absent : categoryRoll < 5 ? .integer : .merchant
    draft.categoryNumber = 1 + rng.next(below: 40)
    draft.extra = rng.chance(percent: 8) ? rng.next(below: Corpus.extras.count) : nil

    // Amount: integer part from the merchant's range, then a currency and a precision.
    let range = merchant.profile.range
    var integer = range.lowerBound + rng.next(below: range.count)
    draft.currency = Currency.draw(&rng)
    let precisionRoll = rng.next(below: 100)
    var fractionDigits = precisionRoll < 65 ? 2 : precisionRoll < 80 ? 0 : precisionRoll < 92 ? 1 : 3
    if draft.currency == .jpy {
      // Yen have no minor unit and are worth about a hundredth of a euro.
      integer = integer * 100 + rng.next(below: 100)
      fractionDigits = 0
    }
    let fraction = rng.next(below: Self.powerOfTen(fractionDigits))
    if integer == 0 && fraction == 0 { integer = 1 }  // a zero payment is not a transaction
    draft.amountInteger = integer
    draft.amountFraction = fraction
    draft.amountFractionDigits = fractionDigits

    if merchant.counterparty != nil {
      draft.counterPartyName = rng.chance(percent: 88)
      draft.counterPartyAccountNumber = rng.chance(percent: 85)
      draft.counterPartyCity = rng.chance(percent: 75) && merchant.counterparty?.city != nil
      draft.counterPartyAddress = rng.chance(percent: 65) && merchant.counterparty?.address != nil
    }

    draft.shuffled = rng.chance(percent: 10)
    draft.amountSwapped = draft.shuffled && rng.chance(percent: 50)
    spaced = rng.chance(percent: 5)
    // Backbase's key order is drawn for every schema, so that the stream (and with it every
    // later record) is the same whichever schema writes the records.
    layOutFields(of: draft)
    return draft
  }

  /// Fills `fields` with the keys of `draft` in Backbase's order, shuffled when drawn so.
  mutating func layOutFields(of draft: Draft) {
    fields.removeAll(keepingCapacity: true)
    fields.append(.id)
    if draft.description != .absent { fields.append(.description) }
    if draft.originalDescription { fields.append(.originalDescription) }
    if draft.typeGroup { fields.append(.typeGroup) }
    if draft.type { fields.append(.type) }
    if draft.category != .absent { fields.append(.category) }
    if draft.extra != nil { fields.append(.extra) }
    fields.append(.amount)
    fields.append(.indicator)
    if draft.counterPartyName { fields.append(.counterPartyName) }
    if draft.counterPartyAccountNumber { fields.append(.counterPartyAccountNumber) }
    if draft.counterPartyCity { fields.append(.counterPartyCity) }
    if draft.counterPartyAddress { fields.append(.counterPartyAddress) }
    fields.append(.creationTime)
    fields.append(.state)
    if draft.shuffled { rng.shuffle(&fields) }
  }

  static func powerOfTen(_ exponent: Int) -> Int {
    var result = 1
    for _ in 0..<exponent { result *= 10 }
    return result
  }

  // MARK: Writing

  func appendField(_ field: Field, of draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    switch field {
    case .id:
      appendKey(Corpus.keyID, to: &out)
      Self.appendID(of: draft, to: &out)
    case .description:
      appendKey(Corpus.keyDescription, to: &out)
      Self.appendString(draft.description == .merchant ? merchant.description : [], to: &out)
    case .originalDescription:
      appendKey(Corpus.keyOriginalDescription, to: &out)
      Self.appendString(merchant.originalDescription ?? [], to: &out)
    case .typeGroup:
      appendKey(Corpus.keyTypeGroup, to: &out)
      Self.appendString(merchant.typeGroup, to: &out)
    case .type:
      appendKey(Corpus.keyType, to: &out)
      Self.appendString(merchant.type, to: &out)
    case .category:
      appendKey(Corpus.keyCategory, to: &out)
      Self.appendCategory(of: draft, merchant: merchant, to: &out)
    case .extra:
      // Extras are written whole, key included, so that their inner layout stays fixed.
      if let extra = draft.extra { out.append(contentsOf: Corpus.extras[extra]) }
    case .amount:
      appendKey(Corpus.keyAmountCurrency, to: &out)
      out.append(.openBrace)
      if draft.amountSwapped {
        appendCurrency(draft, to: &out)
        appendSeparator(.comma, to: &out)
        appendAmount(draft, to: &out)
      } else {
        appendAmount(draft, to: &out)
        appendSeparator(.comma, to: &out)
        appendCurrency(draft, to: &out)
      }
      out.append(.closeBrace)
    case .indicator:
      appendKey(Corpus.keyIndicator, to: &out)
      Self.appendString(draft.credit ? Corpus.credit : Corpus.debit, to: &out)
    case .counterPartyName:
      appendKey(Corpus.keyCounterPartyName, to: &out)
      Self.appendString(merchant.counterparty?.name ?? [], to: &out)
    case .counterPartyAccountNumber:
      appendKey(Corpus.keyCounterPartyAccountNumber, to: &out)
      Self.appendString(merchant.counterparty?.accountNumber ?? [], to: &out)
    case .counterPartyCity:
      appendKey(Corpus.keyCounterPartyCity, to: &out)
      Self.appendString(merchant.counterparty?.city ?? [], to: &out)
    case .counterPartyAddress:
      appendKey(Corpus.keyCounterPartyAddress, to: &out)
      Self.appendString(merchant.counterparty?.address ?? [], to: &out)
    case .creationTime:
      appendKey(Corpus.keyCreationTime, to: &out)
      Self.appendQuotedTimestamp(of: draft, to: &out)
    case .state:
      appendKey(Corpus.keyState, to: &out)
      Self.appendString(draft.pending ? Corpus.pending : Corpus.completed, to: &out)
    }
  }

  func appendAmount(_ draft: Draft, to out: inout [UInt8]) {
    appendKey(Corpus.keyAmount, to: &out)
    out.append(.quote)
    Self.appendMagnitude(of: draft, to: &out)
    out.append(.quote)
  }

  /// The amount's digits without a sign: `7.5`, `5200`, `12.345`.
  static func appendMagnitude(of draft: Draft, to out: inout [UInt8]) {
    appendDecimal(draft.amountInteger, to: &out)
    if draft.amountFractionDigits > 0 {
      out.append(.dot)
      appendPadded(draft.amountFraction, width: draft.amountFractionDigits, to: &out)
    }
  }

  /// The id as a JSON value: the integer `100000 + index`, or a quoted UUID.
  static func appendID(of draft: Draft, to out: inout [UInt8]) {
    if draft.numericID {
      appendDecimal(100_000 + draft.index, to: &out)
    } else {
      out.append(.quote)
      appendUUID(high: draft.idHigh, low: draft.idLow, to: &out)
      out.append(.quote)
    }
  }

  /// The category as a JSON value: the merchant's string, or the drawn integer.
  static func appendCategory(of draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    if draft.category == .integer {
      appendDecimal(draft.categoryNumber, to: &out)
    } else {
      appendString(merchant.category, to: &out)
    }
  }

  func appendCurrency(_ draft: Draft, to out: inout [UInt8]) {
    appendKey(Corpus.keyCurrencyCode, to: &out)
    Self.appendString(Corpus.currencies[draft.currency.rawValue], to: &out)
  }

  /// `"key":` with the record's separator style; `key` comes with its quotes.
  func appendKey(_ key: [UInt8], to out: inout [UInt8]) {
    out.append(contentsOf: key)
    appendSeparator(.colon, to: &out)
  }

  func appendSeparator(_ separator: UInt8, to out: inout [UInt8]) {
    out.append(separator)
    if spaced { out.append(.space) }
  }

  /// A JSON string whose body is already escaped.
  static func appendString(_ body: [UInt8], to out: inout [UInt8]) {
    out.append(.quote)
    out.append(contentsOf: body)
    out.append(.quote)
  }

  /// The decimal digits of a non-negative `value`.
  static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    // Most significant digit first, so nothing needs reversing afterwards.
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    while divisor > 0 {
      out.append(.zero &+ UInt8(truncatingIfNeeded: value / divisor % 10))
      divisor /= 10
    }
  }

  /// The `width` lowest decimal digits of a non-negative `value`, with leading zeros.
  static func appendPadded(_ value: Int, width: Int, to out: inout [UInt8]) {
    var divisor = powerOfTen(width - 1)
    while divisor > 0 {
      out.append(.zero &+ UInt8(truncatingIfNeeded: value / divisor % 10))
      divisor /= 10
    }
  }

  /// `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx` from 128 random bits, with the version and
  /// variant bits set so the result is a well-formed random UUID.
  static func appendUUID(high: UInt64, low: UInt64, to out: inout [UInt8]) {
    let high = (high & ~0xF000) | 0x4000
    let low = (low & ~(0xC << 60)) | (0x8 << 60)
    for nibble in 0..<16 {
      if nibble == 8 || nibble == 12 { out.append(.minus) }
      out.append(hexDigit(high >> (60 - 4 * UInt64(nibble))))
    }
    for nibble in 0..<16 {
      if nibble == 0 || nibble == 4 { out.append(.minus) }
      out.append(hexDigit(low >> (60 - 4 * UInt64(nibble))))
    }
  }

  /// The lower-case hex digit of the low four bits; arithmetic rather than a table lookup,
  /// which would cost a lazy-global check and a retain per digit.
  static func hexDigit(_ bits: UInt64) -> UInt8 {
    let nibble = UInt8(truncatingIfNeeded: bits & 0xF)
    return nibble < 10 ? .zero &+ nibble : .lowerA &+ (nibble &- 10)
  }

  /// The timestamp body in the record's style, from its day number and second of day.
  static func appendTimestamp(of draft: Draft, to out: inout [UInt8]) {
    let (year, month, day) = TransactionGenerator.civilDate(fromDays: draft.day)
    appendPadded(year, width: 4, to: &out)
    out.append(.minus)
    appendPadded(month, width: 2, to: &out)
    out.append(.minus)
    appendPadded(day, width: 2, to: &out)
    if draft.timeStyle == .dateOnly { return }
    out.append(.upperT)
    appendPadded(draft.secondOfDay / 3_600, width: 2, to: &out)
    out.append(.colon)
    appendPadded(draft.secondOfDay / 60 % 60, width: 2, to: &out)
    out.append(.colon)
    appendPadded(draft.secondOfDay % 60, width: 2, to: &out)
    switch draft.timeStyle {
    case .plain, .dateOnly:
      break
    case .millis:
      out.append(.dot)
      appendPadded(draft.millisecond, width: 3, to: &out)
    case .zulu:
      out.append(.upperZ)
    case .offsetColon:
      out.append(contentsOf: Corpus.offsetsColon[draft.offsetIndex])
    case .offsetCompact:
      out.append(contentsOf: Corpus.offsetsCompact[draft.offsetIndex])
    case .zeroMillisZulu:
      out.append(contentsOf: Corpus.zeroMillisZulu)
    }
  }
}

/// The keys a record can have, in the seed's order.
enum Field: CaseIterable {
  case id, description, originalDescription, typeGroup, type, category, extra
  case amount, indicator
  case counterPartyName, counterPartyAccountNumber, counterPartyCity, counterPartyAddress
  case creationTime, state
}

/// Every random choice of one record, drawn before anything is written so that the
/// content does not depend on the key order.
struct Draft {
  enum Presence { case merchant, empty, absent }
  enum CategoryForm { case merchant, integer, absent }

  var index = 0
  var numericID = false
  var idHigh: UInt64 = 0
  var idLow: UInt64 = 0
  var credit = false
  var merchant = 0
  var description = Presence.merchant
  var originalDescription = false
  var typeGroup = true
  var type = true
  var category = CategoryForm.merchant
  var categoryNumber = 0
  var extra: Int?
  var amountInteger = 0
  var amountFraction = 0
  var amountFractionDigits = 0
  var currency = Currency.eur
  var counterPartyName = false
  var counterPartyAccountNumber = false
  var counterPartyCity = false
  var counterPartyAddress = false
  var day = 0
  var secondOfDay = 0
  var millisecond = 0
  var timeStyle = TimeStyle.plain
  var offsetIndex = 0
  var pending = false
  var shuffled = false
  var amountSwapped = false
}

/// How `creationTime` is written.
enum TimeStyle {
  case plain, millis, zulu, offsetColon, offsetCompact, zeroMillisZulu, dateOnly

  /// 72 % plain, 8 % `.123`, 6 % `Z`, 5 % `+02:00`, 4 % `+0200`, 3 % `.000Z`, 2 % bare date.
  static func draw(_ rng: inout SplitMix64) -> TimeStyle {
    switch rng.next(below: 100) {
    case 0..<72: .plain
    case 72..<80: .millis
    case 80..<86: .zulu
    case 86..<91: .offsetColon
    case 91..<95: .offsetCompact
    case 95..<98: .zeroMillisZulu
    default: .dateOnly
    }
  }
}

/// The currencies written, indexing `Corpus.currencies`.
enum Currency: Int {
  case eur, usd, gbp, chf, jpy

  /// EUR 80 %, USD 8 %, GBP 6 %, CHF 4 %, JPY 2 %.
  static func draw(_ rng: inout SplitMix64) -> Currency {
    switch rng.next(below: 100) {
    case 0..<80: .eur
    case 80..<88: .usd
    case 88..<94: .gbp
    case 94..<98: .chf
    default: .jpy
    }
  }
}

/// The integer-part ranges of amounts.
enum AmountProfile {
  case small, medium, large, salary

  var range: ClosedRange<Int> {
    switch self {
    case .small: 0...60
    case .medium: 10...400
    case .large: 150...2_500
    case .salary: 1_800...6_500
    }
  }
}

/// A counterparty's optional fields, as escaped JSON string bodies.
struct Counterparty {
  let name: [UInt8]
  let accountNumber: [UInt8]
  let city: [UInt8]?
  let address: [UInt8]?
}

/// One source of transactions. Strings are JSON string bodies exactly as written, escapes
/// included, so writing them is a plain copy. A class so that handing one around per
/// record costs one retain rather than one per array.
final class Merchant: Sendable {
  let description: [UInt8]
  let originalDescription: [UInt8]?
  let counterparty: Counterparty?
  let category: [UInt8]
  let typeGroup: [UInt8]
  let type: [UInt8]
  let profile: AmountProfile

  init(
    _ description: String, original: String? = nil,
    counterparty: (name: String, account: String, city: String?, address: String?)?,
    category: String, typeGroup: String = "Payment", type: String, profile: AmountProfile
  ) {
    self.description = Array(description.utf8)
    self.originalDescription = original.map { Array($0.utf8) }
    self.counterparty = counterparty.map {
      Counterparty(
        name: Array($0.name.utf8), accountNumber: Array($0.account.utf8),
        city: $0.city.map { Array($0.utf8) }, address: $0.address.map { Array($0.utf8) })
    }
    self.category = Array(category.utf8)
    self.typeGroup = Array(typeGroup.utf8)
    self.type = Array(type.utf8)
    self.profile = profile
  }
}

/// The fixed vocabulary, built once. Raw strings (`#"…"#`) hold JSON escapes verbatim:
/// `#"Caf\u00e9"#` is written as the six bytes `\u00e9`, which a decoder turns into `é`.
enum Corpus {
  static let keyID = Array(#""id""#.utf8)
  static let keyArrangementID = Array(#""arrangementId""#.utf8)
  static let keyDescription = Array(#""description""#.utf8)
  static let keyOriginalDescription = Array(#""originalDescription""#.utf8)
  static let keyTypeGroup = Array(#""typeGroup""#.utf8)
  static let keyType = Array(#""type""#.utf8)
  static let keyCategory = Array(#""category""#.utf8)
  static let keyAmountCurrency = Array(#""transactionAmountCurrency""#.utf8)
  static let keyAmount = Array(#""amount""#.utf8)
  static let keyCurrencyCode = Array(#""currencyCode""#.utf8)
  static let keyIndicator = Array(#""creditDebitIndicator""#.utf8)
  static let keyCounterPartyName = Array(#""counterPartyName""#.utf8)
  static let keyCounterPartyAccountNumber = Array(#""counterPartyAccountNumber""#.utf8)
  static let keyCounterPartyCity = Array(#""counterPartyCity""#.utf8)
  static let keyCounterPartyAddress = Array(#""counterPartyAddress""#.utf8)
  static let keyCreationTime = Array(#""creationTime""#.utf8)
  static let keyState = Array(#""state""#.utf8)

  static let credit = Array("CRDT".utf8)
  static let debit = Array("DBIT".utf8)
  static let pending = Array("PENDING".utf8)
  static let completed = Array("COMPLETED".utf8)
  static let currencies = ["EUR", "USD", "GBP", "CHF", "JPY"].map { Array($0.utf8) }
  static let zeroMillisZulu = Array(".000Z".utf8)
  /// Offsets seen in real exports; the two tables are index-aligned.
  static let offsetsColon = ["+02:00", "+01:00", "+00:00", "-05:00", "+05:30", "+09:00", "-03:00"]
    .map { Array($0.utf8) }
  static let offsetsCompact = ["+0200", "+0100", "+0000", "-0500", "+0530", "+0900", "-0300"]
    .map { Array($0.utf8) }

  /// Unknown fields, key included, that a decoder must skip without being fooled.
  static let extras = [
    #""tags":["groceries","weekly"]"#,
    #""meta":{"x":[1,{"y":null}],"note":"brace } and [ in \"text\""}"#,
    #""reference":null"#,
    #""booked":true"#,
    #""exchangeRate":1.0834"#,
    #""location":{"lat":52.3702,"lon":4.8952,"alt":-2e0,"label":"Dam \/ Centrum"}"#,
    #""labels":[]"#,
    #""attachments":[{"name":"receipt.pdf","pages":[1,2]},{}]"#,
    // A nested "amount" that must not be taken for the transaction's.
    #""runningBalance":{"amount":"-12.00","currencyCode":"EUR"}"#,
  ].map { Array($0.utf8) }

  static let debits: [Merchant] = [
    Merchant(
      "albertheijn.nl", original: "AH TO GO 8826",
      counterparty: ("Albert Heijn", "NL72ABNA0417164300", "Amsterdam", "Nieuwezijds Voorburgwal 226, 1012 RR"),
      category: "Groceries", type: "Card Payment", profile: .small),
    Merchant(
      "www.starbucks.com", original: "STARBUCKS 1184 AMSTERDAM NLD",
      counterparty: ("Starbucks", "NL37INGB0006254411", "Amsterdam", "Leidsestraat 101, 1017 NZ"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      "www.mediamarkt.nl", original: "MEDIA MARKT 0412 AMSTELVEEN",
      counterparty: ("MediaMarkt", "NL83ABNA0607331158", "Amstelveen", "Stadsplein 101, 1181 ZM"),
      category: "Shopping", type: "Card Payment", profile: .medium),
    Merchant(
      "Café Müller",
      counterparty: ("Café Müller GmbH", "DE89370400440532013000", "Berlin", "Torstraße 12, 10119"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      #"Caf\u00e9 de Flore"#,
      counterparty: (
        #"Caf\u00e9 de Flore SARL"#, "FR7630006000011234567890189", "Paris",
        "172 Boulevard Saint-Germain, 75006"
      ),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      #"\"De Kas\" Restaurant"#,
      counterparty: ("Restaurant De Kas B.V.", "NL02RABO0123456789", "Amsterdam", "Kamerlingh Onneslaan 3, 1097 DE"),
      category: "Food Drinks", type: "Card Payment", profile: .medium),
    Merchant(
      #"Huur \\ Keizersgracht 12-II"#,
      counterparty: ("Woonstichting De Key", "NL69INGB0123456789", "Amsterdam", "Daniël Goedkoopstraat 9, 1096 BC"),
      category: "Housing", type: "SEPA Direct Debit", profile: .large),
    Merchant(
      #"https:\/\/www.bol.com\/order\/88120417"#,
      counterparty: ("bol.com B.V.", "NL55ABNA0499852721", "Utrecht", "Papendorpseweg 100, 3528 BJ"),
      category: "Shopping", type: "iDEAL Payment", profile: .medium),
    Merchant(
      "Łódź Kebab & Grill",
      counterparty: (
        "Łódź Kebab Sp. z o.o.", "PL61109010140000071219812874", "Łódź", "ul. Piotrkowska 99, 90-423"
      ),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      "東京 Ramen Ichiban",
      counterparty: ("一番ラーメン", "0001-123-4567890", "東京", "千代田区丸の内1-9-1"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      #"Pizza Night \ud83d\ude00"#,
      counterparty: ("Pizzeria Da Mario", "NL20INGB0001234567", "Rotterdam", "Witte de Withstraat 50, 3012 BR"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      "Boulangerie Crème Brûlée",
      counterparty: ("Crème Brûlée SPRL", "BE71096123456769", "Bruxelles", "Rue Neuve 27, 1000"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
    Merchant(
      "SBB Zürich HB", original: "SBB CFF FFS",
      counterparty: ("Schweizerische Bundesbahnen SBB", "CH9300762011623852957", "Zürich", "Bahnhofplatz 1, 8001"),
      category: "Transport", type: "Card Payment", profile: .small),
    Merchant(
      "Tesco Stores 3041", original: "TESCO STORES 3041 LONDON",
      counterparty: ("Tesco", "GB29NWBK60161331926819", "London", "223 Kensington High St, W8 6SG"),
      category: "Groceries", type: "Card Payment", profile: .small),
    Merchant(
      "Amazon.com*2K4LM93Q1", original: "AMZN Mktp US*2K4LM93Q1",
      counterparty: ("Amazon.com, Inc.", "483101090345", "Seattle", "410 Terry Ave N, WA 98109"),
      category: "Shopping", type: "Card Payment", profile: .medium),
    Merchant(
      "NS Groep IZ",
      counterparty: ("NS Reizigers B.V.", "NL31INGB0000123456", "Utrecht", "Laan van Puntenburg 100, 3511 ER"),
      category: "Transport", type: "Card Payment", profile: .small),
    Merchant(
      "Eneco Energie",
      counterparty: ("Eneco", "NL67RABO0105910520", "Rotterdam", "Marten Meesweg 5, 3068 AV"),
      category: "Utilities", type: "SEPA Direct Debit", profile: .medium),
    Merchant(
      #"Vodafone \/ Ziggo"#,
      counterparty: ("VodafoneZiggo Group B.V.", "NL12ABNA0244215263", "Utrecht", nil),
      category: "Utilities", type: "SEPA Direct Debit", profile: .small),
    Merchant(
      "Internet Banking",
      counterparty: ("J. de Vries", "NL44RABO0123456789", "Haarlem", "Grote Markt 2, 2011 RD"),
      category: "Transfers", type: "SEPA Payment", profile: .medium),
    Merchant(
      "ATM Withdrawal Damrak", original: "GEA NR:S1J027 DAMRAK 1",
      counterparty: nil,
      category: "Cash", typeGroup: "Withdrawal", type: "ATM", profile: .medium),
    Merchant(
      #"Spotify P1A2B3C4\tmonthly"#,
      counterparty: ("Spotify AB", "SE4550000000058398257466", "Stockholm", "Regeringsgatan 19, 111 53"),
      category: "Subscriptions", type: "Card Payment", profile: .small),
    Merchant(
      "HEMA Kalverstraat",
      counterparty: ("HEMA B.V.", "NL30ABNA0517552264", "Amsterdam", "Kalverstraat 212, 1012 XH"),
      category: "Shopping", type: "Card Payment", profile: .small),
    Merchant(
      "Lawson 東京駅店",
      counterparty: ("Lawson, Inc.", "0005-321-7654321", "東京", nil),
      category: "Groceries", type: "Card Payment", profile: .small),
    Merchant(
      "Tandartspraktijk Dr. Øberg",
      counterparty: ("Dr. Øberg", "NL58ABNA0123987654", "Leiden", "Breestraat 8, 2311 CH"),
      category: "Health", type: "SEPA Payment", profile: .medium),
    Merchant(
      #"Bäckerei Schäfer \u2013 Filiale 3"#,
      counterparty: (#"B\u00e4ckerei Sch\u00e4fer"#, "DE44500105175407324931", "München", "Marienplatz 8, 80331"),
      category: "Food Drinks", type: "Card Payment", profile: .small),
  ]

  static let credits: [Merchant] = [
    Merchant(
      "Internet Banking",
      counterparty: ("Backbase B.V", "NL40ABNA0541164350", "Amsterdam", "Jacob Bontiusplaats 9, 1018 LL"),
      category: "Income", type: "SEPA Payment", profile: .salary),
    Merchant(
      "Standing Order",
      counterparty: ("Van Dijk Vastgoed B.V.", "NL06RABO0317584902", "Utrecht", "Oudegracht 150, 3511 AZ"),
      category: "Other Income", type: "SEPA Payment", profile: .large),
    Merchant(
      #"Refund https:\/\/www.bol.com"#,
      counterparty: ("bol.com B.V.", "NL55ABNA0499852721", "Utrecht", "Papendorpseweg 100, 3528 BJ"),
      category: "Shopping", type: "Refund", profile: .medium),
    Merchant(
      #"Tikkie \"Etentje\" \ud83c\udf55"#,
      counterparty: ("A. Jansen", "NL18RABO0300065264", nil, nil),
      category: "Transfers", type: "iDEAL Payment", profile: .small),
    Merchant(
      "Belastingdienst teruggave",
      counterparty: ("Belastingdienst", "NL86INGB0002445588", "Apeldoorn", "Kloosterweg 22, 7321 ZA"),
      category: "Tax", type: "SEPA Payment", profile: .large),
    Merchant(
      "Interest Q4", counterparty: nil,
      category: "Interest", typeGroup: "Account", type: "Interest", profile: .small),
    Merchant(
      "Zorgverzekering vergoeding",
      counterparty: ("Zilveren Kruis", "NL26INGB0004212070", "Utrecht", "Handelskade 49, 2288 BA"),
      category: "Health", type: "SEPA Payment", profile: .medium),
    Merchant(
      #"Gehalt M\u00e4rz \u2013 Müller & Söhne"#,
      counterparty: ("Müller & Söhne GmbH", "DE75512108001245126199", "München", "Leopoldstraße 50, 80802"),
      category: "Income", type: "SEPA Payment", profile: .salary),
  ]
}
