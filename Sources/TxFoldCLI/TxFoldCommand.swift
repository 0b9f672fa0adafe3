import ArgumentParser
import TxFold

/// The `txfold` executable: flags, validation and glue. The work is the library's.
@main
struct TxFoldCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "txfold",
    abstract: "Turns bank-transaction dumps into exact, ordered, grouped reports in one streaming pass.",
    discussion: """
      Exit codes: 0 success, 64 usage error, 65 data error (--strict, --max-rejects, --max-reject-rate, \
      --min-accepted, no record accepted, a sum that overflows, a refused partial state or --state-in), 66 an \
      input (a --state-in too) cannot be opened, 73 an output cannot be created (e.g. its directory is \
      missing), 74 I/O error (including an input cut off inside a record and a truncated or corrupt gzip or \
      zstd stream), 130 interrupted (SIGINT), 143 terminated (SIGTERM).
      """,
    // Names the gzip library too, so a build with `--traits ISAL` can be told apart.
    version: "\(versionNumber) (gzip input: \(GzipSource.inflateLibrary))",
    subcommands: [GroupCommand.self, ListCommand.self, SummaryCommand.self, MergeCommand.self, GenCommand.self]
  )

  /// TxFold's version, as `--version` and the `--stats` document give it.
  static let versionNumber = "0.1.0"

  /// Opens closed standard descriptors on /dev/null before anything else is
  /// opened (so no output can take number 2 and receive messages), installs
  /// the signal handlers, then runs the command.
  static func main() {
    StandardStreams.reserve()
    if let problem = ArgumentEncoding.message() {
      StandardError.write(problem)
      exit(withError: ExitCode(64))
    }
    if let suggestion = CommandSuggestion.message(for: Array(CommandLine.arguments.dropFirst())) {
      StandardError.write(suggestion)
      exit(withError: ExitCode(64))
    }
    SignalGuard.install()
    SystemCalls.raiseDescriptorLimit()
    MemoryRelease.limitArenas(to: GroupOptions().threads)
    main(nil)
  }
}
