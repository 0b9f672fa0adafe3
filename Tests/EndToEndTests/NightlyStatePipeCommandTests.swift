import Foundation
import Testing

/// Last night's state through a pipe — a FIFO, or `<(command)` fetching it
/// from object storage as the job starts — is read once, front to back, into
/// an unlinked temporary file: the night is the one read from the file.
@Suite struct NightlyStatePipeCommandTests {
  @Test(
    "--state-in through a pipe: the report and tonight's state are those read from the file",
    arguments: [
      ["group", "--per-account", "--format", "jsonl"], ["group", "--format", "csv"], ["list", "--format", "csv"],
      ["summary", "--per-account", "--format", "csv", "--memory-limit", "4K"],
    ])
  func stateThroughPipe(command: [String]) throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    let (state, night) = try NightlyCommandTests.stateAndNight(command, in: scene.directory)
    let fromFile = try CLIRunner.run(
      command + ["--state-in", state, "--state-out", scene.path("file.state"), "-o", scene.path("file.out"), night])
    try #require(fromFile.status == 0, "\(fromFile.stderr)")
    try FileManager.default.createDirectory(atPath: scene.path("tmp"), withIntermediateDirectories: false)
    let run = try TrustTests.shell(
      "timeout -s KILL 20 $TXFOLD \(command.joined(separator: " ")) -q --temp-dir tmp --state-in <(cat s1) "
        + "--state-out pipe.state -o pipe.out night1.jsonl; echo \"status=$?\"",
      in: scene)
    #expect(run.stdout == "status=0\n", "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("pipe.out") == scene.contents("file.out"))
    #expect(try scene.contents("pipe.state") == scene.contents("file.state"))
    // The copy was unlinked at once, and its directory removed.
    #expect(try FileManager.default.contentsOfDirectory(atPath: scene.path("tmp")).isEmpty)
  }

  @Test("--state-in naming a FIFO: read once its writer has opened it, as an input FIFO is")
  func stateThroughNamedFIFO() throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    let (state, night) = try NightlyCommandTests.stateAndNight(["group"], in: scene.directory)
    let fromFile = try CLIRunner.run([
      "group", "--state-in", state, "--state-out", scene.path("file.state"), "-o", scene.path("file.out"), night,
    ])
    try #require(fromFile.status == 0, "\(fromFile.stderr)")
    try #require(mkfifo(scene.path("fifo"), 0o600) == 0)
    let run = try TrustTests.shell(
      "(cat s1 > fifo &); timeout -s KILL 20 $TXFOLD group -q --state-in fifo --state-out fifo.state -o fifo.out night1.jsonl; "
        + "echo \"status=$?\"",
      in: scene)
    #expect(run.stdout == "status=0\n", "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("fifo.out") == scene.contents("file.out"))
    #expect(try scene.contents("fifo.state") == scene.contents("file.state"))
  }

  @Test("A pipe whose first bytes are not a state's is refused (65) at once, not read to its end")
  func notAState() throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    _ = try NightlyCommandTests.stateAndNight(["group"], in: scene.directory)
    // The shell keeps the FIFO open for writing (and txfold inherits it): a reader that copied
    // to the end would wait until it is killed at 20 s (137).
    try #require(mkfifo(scene.path("fifo"), 0o600) == 0)
    let run = try TrustTests.shell(
      "exec 3<>fifo; printf 'not a state at all' >&3; "
        + "timeout -s KILL 20 $TXFOLD group -q --state-in fifo --state-out s2 night1.jsonl; echo \"status=$?\"",
      in: scene)
    #expect(run.stdout == "status=65\n", "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("not a txfold state file"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scene.path("s2")))
  }

  /// States kept in object storage are often compressed once more on the way: the refusal says so.
  @Test("A state compressed again (gzip, zstd), as a file or through a pipe: 65 naming the command that opens it")
  func compressedState() throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    _ = try NightlyCommandTests.stateAndNight(["group"], in: scene.directory)
    for (tool, command) in [("gzip", "gzip -dc"), ("zstd", "zstd -dc")] {
      let run = try TrustTests.shell(
        "\(tool) -c s1 > s1.z || exit 0; "
          + "timeout -s KILL 20 $TXFOLD group -q --state-in s1.z --state-out s2 night1.jsonl; echo \"status=$?\"; "
          + "timeout -s KILL 20 $TXFOLD group -q --state-in <(cat s1.z) --state-out s2 night1.jsonl; echo \"status=$?\"",
        in: scene)
      guard !run.stdout.isEmpty else { continue }  // no such tool here
      #expect(run.stdout == "status=65\nstatus=65\n", "\(tool): \(run.stdout) \(run.stderr)")
      let said = "it is \(tool)-compressed, not a txfold state file; decompress it first (\(command))"
      #expect(run.stderr.components(separatedBy: said).count == 3, "\(tool): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: scene.path("s2")))
    }
  }

  @Test("A state cut short in its pipe is refused (65) as truncated; no --state-out is written")
  func truncatedInPipe() throws {
    let scene = try TrustTests.Scene()
    defer { scene.remove() }
    _ = try NightlyCommandTests.stateAndNight(["group"], in: scene.directory)
    let size = try scene.contents("s1").count
    let run = try TrustTests.shell(
      "timeout -s KILL 20 $TXFOLD group -q --state-in <(head -c \(size - 10) s1) --state-out s2 night1.jsonl; "
        + "echo \"status=$?\"",
      in: scene)
    #expect(run.stdout == "status=65\n", "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("truncated"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scene.path("s2")))
  }
}
