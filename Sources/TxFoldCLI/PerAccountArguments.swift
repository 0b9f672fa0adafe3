import ArgumentParser
import TxFold

/// `--per-account`, `--account-from-file` and `--output-dir` as `list` and
/// `summary` take them (`group` has its own, with its partial output).
struct PerAccountArguments: ParsableArguments {
  @Flag(
    help:
      "One result per account, accounts in byte-wise order of their ids (the account field: backbase's arrangementId, or --field account=PATH)."
  )
  var perAccount = false

  @Flag(help: "With --per-account: each record's account is its input file's name up to the first '.'.")
  var accountFromFile = false

  @OptionGroup
  var pageOutput: OutputDirectoryArguments

  /// Checks the flags against the rest of the command line and sets where
  /// the accounts come from; returns whether the run is per account.
  func apply(
    to read: inout ReadOptions, files: [String], dedupe: Bool, format: ReportFormat, formats: [ReportFormat]
  ) throws -> Bool {
    guard perAccount else {
      if accountFromFile { throw ValidationError("--account-from-file needs --per-account.") }
      return false
    }
    guard formats.contains(format) else {
      let names = formats.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--per-account writes \(names), not --format \(format.rawValue).")
    }
    if accountFromFile {
      if files.isEmpty || files.contains("-") {
        throw ValidationError(
          "--account-from-file needs input files: standard input has no name to take the account from.")
      }
      read.accounts = .fileName
    } else {
      read.accounts = .field
      if read.lacksAccountMapping {
        let schema = read.schema?.name ?? "auto"
        throw ValidationError(
          "--per-account needs each record's account, and schema '\(schema)' has no account field: "
            + "map one with --field account=PATH (or use --account-from-file).")
      }
    }
    return true
  }
}
