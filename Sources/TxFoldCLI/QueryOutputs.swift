import ArgumentParser
import TxFold

/// The report and rejects files of a `list` or `summary` run, opened before
/// any reading (so an output that cannot be written fails at once) and
/// protected against SIGINT until committed or discarded.
final class QueryOutputs {
  let report: OutputFile
  let rejects: OutputFile?
  private var rejectsBuffer: [UInt8] = []

  init(output: String?, rejects: String?) throws {
    do throws(OutputError) {
      report = try output.map { path throws(OutputError) in try OutputFile.atomic(path: path) } ?? .standardOutput()
      self.rejects = try rejects.map { path throws(OutputError) in try OutputFile.atomic(path: path) }
    } catch {
      throw ExitStatus.fail(error)
    }
    SignalGuard.protect(temporaryFiles: [report.temporaryPath, self.rejects?.temporaryPath].compactMap { $0 })
  }

  /// The rejection callback for the pipeline (nil without `--rejects`).
  var onRejection: ((RecordRejection) throws -> Void)? {
    guard let rejects else { return nil }
    return { [self] rejection in
      RejectsFileWriter.append(rejection, to: &rejectsBuffer)
      if rejectsBuffer.count >= 1 << 16 {
        try rejects.write(rejectsBuffer)
        rejectsBuffer.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Commits the rejects file (also when the run failed: it explains a
  /// `--strict` or `--max-rejects` stop).
  func commitRejects() throws(OutputError) {
    guard let rejects else { return }
    try rejects.write(rejectsBuffer)
    rejectsBuffer.removeAll()
    try rejects.commit()
  }

  /// Writes report bytes.
  func write(_ buffer: inout [UInt8]) throws(OutputError) {
    try report.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Runs a query pipeline (`list`, `summary`); when it fails, clears the
  /// progress line, keeps the rejects so far, drops the report and exits with
  /// the error's status.
  func runPipeline<Result>(
    clearing summary: RunSummary, _ body: () throws(QueryPipelineError) -> Result
  ) throws -> Result {
    do throws(QueryPipelineError) {
      let result = try body()
      summary.clearProgress()
      return result
    } catch {
      summary.clearProgress()
      abandon()
      throw ExitStatus.fail(error)
    }
  }

  /// After a failed run: no report, but the rejects so far.
  func abandon() {
    report.discard()
    try? commitRejects()
    SignalGuard.protect(temporaryFiles: [])
  }

  /// After a successful run: the report into place.
  func commitReport() throws(OutputError) {
    try report.commit()
    SignalGuard.protect(temporaryFiles: [])
  }
}
