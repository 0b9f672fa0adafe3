import ArgumentParser
@_spi(Benchmarks) import TxFold
import TxFoldGen

/// `txfold gen`: deterministic synthetic dumps for tests, demos and benchmarks (Documentation/Guide.md, "`txfold gen`").
struct GenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gen",
    abstract: "Writes a deterministic synthetic transaction dump (JSON lines) in any built-in schema.",
    discussion: """
      Examples:
        txfold gen --count 1000000 --gzip -o dump-1m.jsonl.gz
        txfold gen --count 5000 --accounts 300 | txfold group --per-account
        txfold gen --count 2000000 --accounts 200000 --order account -o bank.jsonl
        txfold gen --count 100000 --resend 0.2 | txfold group --dedupe
        txfold gen --count 1000 --schema psd2 | txfold group
      """
  )

  @Option(parsing: .unconditional, help: "Number of records.", transform: WholeNumber.reader())
  var count: Int

  @Option(
    parsing: .unconditional, help: "Seed: the same seed and count give the same bytes.",
    transform: WholeNumber.reader())
  var seed: UInt64 = 42

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Spread the records over this many accounts (an arrangementId on each), skewed like a bank's export: a few corporate accounts hold 30 % of the records, most accounts a handful.",
      valueName: "N"
    ), transform: WholeNumber.reader())
  var accounts: Int = 0

  @Option(
    help: ArgumentHelp(
      "Order of the lines: day (records in time order, the default), account (by account, each account's in time order; with --accounts) or shuffled (a deterministic shuffle of the whole dump); account and shuffled keep 40 bytes a line in memory.",
      valueName: "order"),
    completion: .list(GeneratorOrder.allCases.map(\.rawValue)))
  var order: String = GeneratorOrder.day.rawValue

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Send this share of the records again later in the dump with the same id (0 to 1, e.g. 0.2, or 20%): COMPLETED ones as exact copies a day later, PENDING ones as their COMPLETED version; keeps 40 bytes a line in memory.",
      valueName: "rate"))
  var resend: String = "0"

  @Option(
    help: ArgumentHelp(
      "Schema of the records: backbase (the default), payback, ledger, swile or psd2. Each writes the same transactions in its own fields, one per line, as far as it has fields for them (none but backbase has a state or an account; ledger has no currency, category or counterparty, swile no id, psd2 no category).",
      valueName: "schema"),
    completion: .list(GeneratorSchema.allCases.map(\.rawValue)))
  var schema: String = GeneratorSchema.backbase.rawValue

  @Flag(help: "Compress the output with gzip.")
  var gzip = false

  @Option(
    name: [.short, .long], help: "Write to this file (replaced atomically) instead of standard output.",
    completion: .file())
  var output: String?

  func validate() throws {
    guard count >= 0 else { throw ValidationError("--count must be at least 0, not \(count).") }
    guard (0...GeneratorOptions.maximumAccounts).contains(accounts) else {
      throw ValidationError("--accounts must be between 0 and \(GeneratorOptions.maximumAccounts), not \(accounts).")
    }
    guard let generatorSchema = GeneratorSchema(rawValue: schema) else {
      throw ValidationError("--schema must be backbase, payback, ledger, swile or psd2, not '\(schema)'.")
    }
    // Refused rather than dropped: a dump without the accounts or re-sends asked for would
    // look right and measure something else.
    guard accounts == 0 || generatorSchema.carriesAccount else {
      throw ValidationError(
        "--accounts cannot be used with --schema \(schema): its records have no account field (only backbase's have one, arrangementId)."
      )
    }
    guard GeneratorOptions.resendPerMillion(parsing: resend) ?? 0 == 0 || generatorSchema.carriesID else {
      throw ValidationError(
        "--resend cannot be used with --schema \(schema): its records have no id, so a re-sent record would be a new transaction."
      )
    }
    guard GeneratorOrder(rawValue: order) != nil else {
      throw ValidationError("--order must be day, account or shuffled, not '\(order)'.")
    }
    guard GeneratorOptions.resendPerMillion(parsing: resend) != nil else {
      throw ValidationError(
        "--resend must be a share from 0 to 1 with at most six decimals (0.2) or a percentage (20%), not '\(resend)'.")
    }
  }

  func run() throws {
    let generator = TransactionGenerator(
      options: GeneratorOptions(
        count: count, seed: seed, accounts: accounts, order: GeneratorOrder(rawValue: order) ?? .day,
        resendPerMillion: GeneratorOptions.resendPerMillion(parsing: resend) ?? 0,
        schema: GeneratorSchema(rawValue: schema) ?? .backbase))
    let outputs = try RunOutputs(command: "gen", report: output, rejects: nil, inputs: [])
    do throws(OutputError) {
      if gzip {
        let compressor = try GzipFileWriter(fileDescriptor: outputs.report.fileDescriptor, name: outputs.report.name)
        try generator.generate { (buffer: inout [UInt8]) throws(OutputError) in
          try compressor.write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
        try compressor.finish()
      } else {
        try generator.generate(flush: outputs.write)
      }
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
    }
    try outputs.commit()
  }
}
