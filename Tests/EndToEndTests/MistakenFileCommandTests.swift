import Foundation
import Testing

/// An operator who hands a state file to `merge`, or a partial to `--state-in`, is told what the
/// file is and where it goes, not only that it is not what was expected (exit 65 either way).
@Suite("txfold: a state where a partial belongs, and the reverse")
struct MistakenFileCommandTests {
  @Test("merge (and merge --per-account) of a state file: 65, naming it a state file for --state-in")
  func stateToMerge() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for perAccount in [false, true] {
      let flags = perAccount ? ["--per-account"] : []
      let (state, _) = try NightlyCommandTests.stateAndNight(["group"] + flags, records: 40, in: directory)
      let run = try CLIRunner.run(["merge"] + flags + [state])
      #expect(run.status == 65, "\(run.stderr)")
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr.contains(
          "'\(state)': it is a txfold state file (from --state-out), not a partial state: "
            + "give it to --state-in, not to txfold merge."), "\(run.stderr)")
    }
  }

  @Test(
    "--state-in of a partial (a file or a pipe) or of JSON: 65, naming what it is and where it goes",
    arguments: ["partial", "per-account partial", "partial through a pipe", "transactions"])
  func wrongStateIn(kind: String) throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    let (_, night) = try NightlyCommandTests.stateAndNight(["group"], records: 40, in: scene.directory)
    let given = scene.path("given")
    switch kind {
    case "transactions":
      try FileManager.default.copyItem(atPath: night, toPath: given)
    default:
      let flags = kind == "per-account partial" ? ["--per-account"] : []
      let partial = try CLIRunner.run(["group", "-q", "--emit", "partial", "-o", given] + flags + [night])
      #expect(partial.status == 0, "\(partial.stderr)")
    }
    let said =
      kind == "transactions"
      ? "it is not a txfold state file: it starts like JSON (transactions?), which is an input, not --state-in."
      : "it is a txfold partial state (from --emit partial), not a state file (from --state-out): "
        + "give it to txfold merge, not to --state-in."
    // Through a pipe, the state is judged by its first bytes as it is copied.
    let stateIn = kind == "partial through a pipe" ? "<(cat given)" : "given"
    let run = try TrustTests.shell(
      "timeout -s KILL 20 $TXFOLD group -q --state-in \(stateIn) --state-out s2 \(night); echo \"status=$?\"",
      in: scene)
    #expect(run.stdout == "status=65\n", "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("State file '"), "\(run.stderr)")
    #expect(run.stderr.contains(said), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scene.path("s2")))
  }
}
