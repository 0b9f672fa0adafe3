import Testing

@testable import TxFoldCLI

/// Sizes on the command line (`--memory-limit`, `--max-record-bytes`).
@Suite("Sizes on the command line")
struct ByteCountTests {
  @Test(
    "Units: K/KiB, M/MiB, G/GiB are powers of 1024, KB/MB/GB of 1000, any case",
    arguments: [
      ("1048576", 1_048_576) as (String, Int), ("0", 0), ("512B", 512), ("512b", 512),
      ("4K", 4_096), ("4k", 4_096), ("4KiB", 4_096), ("4kib", 4_096), ("4KIB", 4_096),
      ("4M", 4_194_304), ("4MiB", 4_194_304), ("4mib", 4_194_304), ("2G", 2_147_483_648), ("2GiB", 2_147_483_648),
      ("2gib", 2_147_483_648),
      ("4KB", 4_000), ("4kb", 4_000), ("4MB", 4_000_000), ("4mB", 4_000_000), ("2GB", 2_000_000_000),
      ("007K", 7_168),
    ])
  func units(text: String, bytes: Int) throws {
    #expect(try ByteCount.parse(text) == bytes)
  }

  @Test(
    "Bad sizes say what is wrong, and a huge one is an error, not a trap",
    arguments: [
      ("", ByteCount.ParseError.empty) as (String, ByteCount.ParseError), ("lots", .noDigits("lots")),
      ("K", .noDigits("K")),
      ("-1K", .noDigits("-1K")), ("+1K", .noDigits("+1K")), (" 1K", .noDigits(" 1K")),
      ("1.5M", .unknownUnit(".5M")), ("4 MiB", .unknownUnit(" MiB")), ("4T", .unknownUnit("T")),
      ("4MIBS", .unknownUnit("MIBS")), ("4Ki", .unknownUnit("Ki")), ("4iB", .unknownUnit("iB")),
      ("9223372036854775807K", .tooLarge), ("99999999999999999999", .tooLarge), ("8589934592G", .tooLarge),
      ("١٢K", .noDigits("١٢K")),
    ])
  func errors(text: String, error: ByteCount.ParseError) {
    #expect(throws: error) { try ByteCount.parse(text) }
  }

  @Test(
    "The command line's sizes, end to end: accepted values and the messages of refused ones",
    arguments: [
      (["--max-record-bytes", "4MiB"], 0, #""maxRecordBytes":4194304"#) as ([String], Int32, String),
      (["--max-record-bytes", "64kb"], 0, #""maxRecordBytes":64000"#),
      (["--max-record-bytes", "1GiB"], 0, #""maxRecordBytes":1073741824"#),
      (
        ["--max-record-bytes", "2GiB"], 64,
        "--max-record-bytes must be a size from 1 byte to 1GiB, not '2GiB' (2147483648 bytes)."
      ),
      (["--max-record-bytes", "0"], 64, "--max-record-bytes must be a size from 1 byte to 1GiB, not '0' (0 bytes)."),
      (["--max-record-bytes", "4MiBs"], 64, "not '4MiBs': 'MiBs' is not a unit (use B, K/KiB"),
      (["--max-record-bytes", "99999999999999999999G"], 64, "not '99999999999999999999G': it is too large."),
    ])
  func commandLine(arguments: [String], status: Int32, expected: String) throws {
    let outcome = try CLIRunner.run(["group", "--quiet", "--emit", "partial"] + arguments, stdin: [])
    #expect(outcome.status == status)
    #expect((status == 0 ? outcome.text : outcome.stderr).contains(expected), "\(outcome.stderr)")
  }

  @Test("--memory-limit takes the same units (4MiB was a usage error)")
  func memoryLimit() throws {
    let accepted = try CLIRunner.run(["list", "--quiet", "--memory-limit", "4MiB"], stdin: [])
    #expect(accepted.status == 0, "\(accepted.stderr)")
    let refused = try CLIRunner.run(["list", "--quiet", "--memory-limit", "4Q"], stdin: [])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--memory-limit must be a size of at least 1 byte, not '4Q': 'Q' is not a unit"))
  }
}
