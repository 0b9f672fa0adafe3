/// Which scalars of text from outside (descriptions, categories, ids, file names) are never
/// shown as they are: the one rule of the `text` and `html` reports, which write them as U+FFFD,
/// and of the CLI's messages, which escape them (`json` and `csv` keep the text's bytes).
extension Unicode.Scalar {
  /// Whether this scalar would act instead of print, or print nothing, so that two texts that
  /// differ would look alike: the C0 and C1 control characters and DEL; every format character
  /// (Unicode general category Cf) — the bidirectional embeddings, overrides, isolates and marks
  /// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the zero-width space and joiners
  /// (U+200B–U+200D), the word joiner and invisible operators (U+2060–U+2064), the byte order mark
  /// (U+FEFF), the soft hyphen (U+00AD), tags (U+E0001, U+E0020–U+E007F) and the rest; and the
  /// noncharacters U+FFFE and U+FFFF. Tab, line feed and carriage return are controls too: each
  /// caller decides what they become. A report keeps a joiner where a script needs it
  /// (`String.forEachShownScalar`).
  package var isHiddenFromDisplay: Bool {
    switch value {
    case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
    // Printable ASCII and Latin up to the first format character past U+00AD: no look-up.
    case 0x20..<0x7F, 0xA0...0xAC, 0xAE..<0x600: return false
    default: return properties.generalCategory == .format
    }
  }

  /// The zero-width non-joiner and joiner (U+200C, U+200D).
  var isJoiner: Bool { value == 0x200C || value == 0x200D }

  /// Whether a joiner beside this scalar may do a joiner's work: the scripts that join or
  /// break letters with one (Arabic, Persian, the Indic scripts, Sinhala, …) and emoji sequences
  /// all lie at U+0590 or above; Latin, Greek and Cyrillic, where a joiner only hides, below.
  var takesJoiners: Bool { value >= 0x590 && !isHiddenFromDisplay }
}

extension String {
  /// Calls `body` with each scalar and whether a report shows it (`false`: it writes U+FFFD):
  /// every scalar but `isHiddenFromDisplay` ones, and a joiner (U+200C, U+200D) between two
  /// scalars that take one (`takesJoiners`) — `👩\u{200D}💻`, a Persian word's non-joiner — so a
  /// joiner cannot make `Food` and `Fo\u{200D}od` look alike, nor turn a real one into U+FFFD.
  func forEachShownScalar(_ body: (Unicode.Scalar, _ shown: Bool) -> Void) {
    var previous: Unicode.Scalar?
    var index = unicodeScalars.startIndex
    while index < unicodeScalars.endIndex {
      let scalar = unicodeScalars[index]
      unicodeScalars.formIndex(after: &index)
      var shown = !scalar.isHiddenFromDisplay
      if !shown && scalar.isJoiner, let previous, previous.takesJoiners, index < unicodeScalars.endIndex {
        shown = unicodeScalars[index].takesJoiners
      }
      body(scalar, shown)
      previous = scalar
    }
  }
}
