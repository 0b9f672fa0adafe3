import Foundation
import Testing

/// Runs `Examples/spark/run_local_test.sh` against the built `txfold`: Spark in local
/// mode fans `group --emit partial` out over partitions and `merge` writes the report,
/// which must equal one local `txfold group` run byte for byte; and `--per-account`, which
/// repartitions the lines by account and merges the per-account partials with
/// `merge --per-account`, must equal one local `txfold group --per-account` run.
@Suite("Spark example")
struct SparkExampleTests {
  static let enabled = ProcessInfo.processInfo.environment["TXFOLD_SPARK_TESTS"] == "1"

  @Test(
    "Spark's partition-wise partials merge to the single-run report",
    .enabled(
      if: enabled,
      """
      Set TXFOLD_SPARK_TESTS=1 to run Examples/spark/run_local_test.sh: it needs Python 3 with venv, Java 17, \
      and PyPI (pip install pyspark) unless Examples/spark/.venv already has it; it takes about a minute.
      """))
  func localSpark() throws {
    let script = CLIRunner.packageRoot.appendingPathComponent("Examples/spark/run_local_test.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path]
    var environment = ProcessInfo.processInfo.environment
    environment["TXFOLD"] = CLIRunner.binary.path
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("every report equals a single txfold group run, byte for byte"), "\(text)")
    #expect(
      text.contains("the merged per-account reports equal a single txfold group --per-account run, byte for byte"),
      "\(text)")
    #expect(!text.contains("FAIL"), "\(text)")
  }
}
