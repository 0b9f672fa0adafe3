import ArgumentParser
import TxFold

/// `--state-in`, `--state-out` and `--changed-only`: an incremental nightly
/// run (Documentation/Guide.md, "Nightly runs"), on `group`, `list` and `summary`.
struct NightlyArguments: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Last night's state (written by --state-out): tonight's inputs are folded into it, as if every night's inputs were read with --dedupe. A FIFO or <(command) is copied to --temp-dir first.",
      valueName: "file"))
  var stateIn: String?

  @Option(
    help: ArgumentHelp(
      "Write tonight's state here (atomically, only when the run succeeds), for the next night's --state-in.",
      valueName: "file"))
  var stateOut: String?

  @Flag(
    help: ArgumentHelp(
      "With --per-account and --state-in/--state-out: write only the accounts whose report changed tonight (a new, replaced or corrected transaction; not a re-sent identical one), for a nightly upsert. The stats say how many changed of how many accounts."
    ))
  var changedOnly = false

  /// Whether the run is incremental.
  var isNightly: Bool { stateIn != nil || stateOut != nil }

  /// Checks the flags against the rest of the command line: a state run always dedupes.
  /// `selects`: a selection flag (`--since`, `--category`, …) is given.
  func check(
    accountFromFile: Bool, emitsPartial: Bool = false, sortedByAccount: Bool = false, perAccount: Bool,
    selects: Bool
  ) throws {
    if changedOnly {
      guard isNightly else {
        throw ValidationError(
          "--changed-only needs --state-in/--state-out: an account changed since the state the run reads.")
      }
      guard perAccount else {
        throw ValidationError("--changed-only needs --per-account: it leaves out the accounts that did not change.")
      }
      // An account whose transactions all left the selection would vanish from the report, unsaid.
      if selects {
        throw ValidationError(
          "--changed-only cannot be used with a selection (--since, --category, …): an account that a "
            + "correction takes out of it would be left out of the report without a word; select later, when loading.")
      }
    }
    guard isNightly else { return }
    if stateIn == "-" || stateOut == "-" {
      throw ValidationError(
        "--state-in and --state-out name files, not standard input or output (--state-in may name a FIFO or <(command))."
      )
    }
    if accountFromFile {
      throw ValidationError(
        "--state-in/--state-out read the account from each record: --account-from-file cannot be used with them.")
    }
    if emitsPartial { throw ValidationError("--emit partial and --state-out are two ways to carry a fold: give one.") }
    if sortedByAccount {
      throw ValidationError(
        "--sorted-by-account cannot be used with --state-in/--state-out: a state run folds tonight's state, which is always in account order."
      )
    }
  }

  /// Opens last night's state for `job` (the run's options, with the
  /// settings it pins) into `read`; a state that cannot be used fails the
  /// run's `outputs` (65, naming the setting or the damage).
  func open(into read: inout ReadOptions, job: NightlyState.Job, outputs: RunOutputs) throws {
    guard isNightly else { return }
    do throws(StateFileError) {
      read.nightly = try NightlyState(
        previous: stateIn, job: job, names: .flags,
        onTemporaryDirectory: { SignalGuard.protect(temporaryDirectory: $0) })
      read.nightly?.changedOnly = changedOnly
      outputs.nightly = read.nightly
      // The second pass writes tonight's state straight into --state-out's staged file: committing it is a rename.
      if let state = outputs.state, state.temporaryPath != nil {
        read.nightly?.stage(into: state.fileDescriptor, name: state.name)
      }
    } catch {
      throw outputs.fail(ExitStatus.fail(PipelineError.state(error)))
    }
  }
}
