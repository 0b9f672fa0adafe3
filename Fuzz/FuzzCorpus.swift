// The seed corpus (Fuzz/corpus/<target>/), written by the fuzz binary itself so that
// the partial seeds come from this tree's writers: `Fuzz/make-corpus.sh`.
import Foundation

/// libFuzzer calls this once before fuzzing. With `TXFOLD_FUZZ_MAKE_CORPUS=<folder>`
/// set, the binary writes the seeds there and exits instead of fuzzing.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  guard let folder = ProcessInfo.processInfo.environment["TXFOLD_FUZZ_MAKE_CORPUS"] else { return 0 }
  do {
    try FuzzCorpus(folder: folder).write()
  } catch {
    FileHandle.standardError.write(Data("make-corpus: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}

struct FuzzCorpus {
  let folder: String
  let root = fuzzRepositoryRoot

  /// The seed `payload` of target `index`, under `name`; the first byte is the selector.
  func seed(_ index: Int, _ name: String, _ payload: [UInt8]) throws {
    let directory = "\(folder)/\(fuzzTargets[index].name)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let selector = UInt8(ascii: "0") + UInt8(index)
    try Data([selector] + payload).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
  }

  func file(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path.hasPrefix("/") ? path : "\(root)/\(path)")))
  }

  /// A plain partial of `dump` as `group --emit partial` writes it.
  func partial(_ dump: [UInt8], options: GroupOptions) throws -> [UInt8] {
    PartialStateWriter.writeToBytes(
      try GroupPipeline(options: options).runPartial(sources: [FuzzSource(dump, step: 1 << 20)]))
  }

  /// A per-account partial of `dump` as `group --per-account --emit partial` writes it.
  func accountPartial(_ dump: [UInt8], options: GroupOptions) throws -> [UInt8] {
    let cursor = try GroupPipeline(options: options).runPerAccountPartial(sources: [FuzzSource(dump, step: 1 << 20)])
    let out = ByteCollector()
    try cursor.writePartial(flush: out.flush)
    return out.bytes
  }

  func write() throws {
    let dumps = [
      "corpus.jsonl", "corpus-array.json", "corpus-wrapped.json", "corpus.jsonl.gz", "corpus-crlf.jsonl",
      "corpus-one-malformed.jsonl", "corpus-array-trailing-commas.json", "duplicates.jsonl",
    ]
    let corpus = try file("Tests/Fixtures/corpus.jsonl")
    // A few hundred lines of the per-account fixture: enough accounts to spill, small enough to run fast.
    let perAccount =
      Array(
        try file("Tests/Fixtures/per-account.jsonl").split(separator: UInt8(ascii: "\n")).prefix(40).joined(separator: [
          UInt8(ascii: "\n")
        ])) + [UInt8(ascii: "\n")]

    // 0: single records.
    for (number, line) in corpus.split(separator: UInt8(ascii: "\n")).prefix(4).enumerated() {
      try seed(0, "record-\(number)", Array(line))
    }
    try seed(
      0, "array-record",
      Array(
        #"{"id":"x","transactionAmountCurrency":{"amount":"1e3","currencyCode":"EUR"},"creationTime":"2024-01-01T00:00:00Z",}"#
          .utf8))
    // 1 and 4: dumps in every framing.
    for name in dumps {
      try seed(1, name, try file("Tests/Fixtures/\(name)"))
      try seed(4, name, try file("Tests/Fixtures/\(name)"))
    }
    try seed(1, "sample-grouped-mixed.jsonl", try file("SampleData/user-10015-grouped-mixed.jsonl"))
    try seed(1, "psd2-account.json", try file("SampleData/psd2-account.json"))
    // 2 and 6: dumps with accounts.
    try seed(2, "per-account.jsonl", perAccount)
    try seed(2, "corpus.jsonl", corpus)
    try seed(6, "per-account.jsonl", perAccount)
    try seed(6, "corpus.jsonl", corpus)
    try seed(14, "per-account.jsonl", perAccount)
    try seed(14, "corpus.jsonl", corpus)
    // 3: plain partials with several settings.
    var options = GroupOptions()
    options.threads = 1
    try seed(3, "corpus.partial", try partial(corpus, options: options))
    options.memberLimit = 0
    try seed(3, "per-account-no-members.partial", try partial(perAccount, options: options))
    options.memberLimit = 3
    options.read.zone =
      (try? ZoneResolver.named("Test/Rule", directory: root + "/Tests/Fixtures/zoneinfo")) ?? .asWritten
    try seed(3, "array-zone.partial", try partial(try file("Tests/Fixtures/corpus-array.json"), options: options))
    // 5: per-account partials, one of them folded with spilling.
    options = GroupOptions()
    options.threads = 1
    options.read.accounts = .field
    try seed(5, "per-account.partial", try accountPartial(perAccount, options: options))
    options.memoryLimit = 1
    options.memberLimit = 1
    try seed(5, "per-account-spilled.partial", try accountPartial(perAccount, options: options))
    // 7: zone files, the fixtures and (where tzdata is installed) a few real ones.
    for name in ["Test/Rule", "Test/HalfPast"] {
      try seed(7, name.replacingOccurrences(of: "/", with: "-"), try file("Tests/Fixtures/zoneinfo/\(name)"))
    }
    for name in ["Europe/Amsterdam", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "UTC"]
    where FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/\(name)") {
      try seed(7, name.replacingOccurrences(of: "/", with: "-"), try file("/usr/share/zoneinfo/\(name)"))
    }
    // 8: POSIX TZ rules, as the tests hold them.
    let rules = [
      "CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0,M11.1.0", "AEST-10AEDT,M10.1.0,M4.1.0/3", "<+0530>-5:30",
      "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "IST-2IDT,M3.4.4/26,M10.5.0", "XST-1XDT,J60/2,300",
      "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45",
    ]
    for (number, rule) in rules.enumerated() { try seed(8, "rule-\(number)", Array(rule.utf8)) }
    // 9: a zone byte and a dump.
    for zone: UInt8 in 0..<4 {
      try seed(9, "zone-\(zone)-dump", [zone] + fuzzZoneDump)
    }
    try seed(9, "zone-4-corpus", [4] + corpus)
    // 10: bytes to write; their hash picks the target's kind, the ending and the chunk size.
    for number in 0..<8 {
      try seed(10, "output-\(number)", Array(corpus.prefix(40 + 97 * number)))
    }
    // One seed per kind (the eight above share their first 64 bytes, so most are one kind): a
    // first byte chosen so that the hash picks it, kind 5 being standard input's file.
    for kind in 0..<6 {
      let body = Array(corpus.prefix(60 + 97 * kind))
      let lead = (0...255).map(UInt8.init).first { fuzzKnob([$0] + body, 6) == kind } ?? 0
      try seed(10, "output-kind-\(kind)", [lead] + body)
    }
    // 11: zstd streams: one frame, several with a skippable one, truncated, a bad checksum, the
    // array (the fixtures, made by the `zstd` tool).
    for name in [
      "corpus.jsonl.zst", "corpus-multiframe.jsonl.zst", "corpus-truncated.jsonl.zst", "corpus-bad-checksum.jsonl.zst",
      "corpus-array.json.zst",
    ] {
      try seed(11, name, try file("Tests/Fixtures/\(name)"))
    }
  }
}
