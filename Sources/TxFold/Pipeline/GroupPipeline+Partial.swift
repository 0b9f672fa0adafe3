extension GroupPipeline {
  /// Runs the job like `run(paths:)` but stops before ordering: the result is
  /// a mergeable `PartialState` (`txfold group --emit partial`).
  ///
  /// `options.dedupe` must be `false`: which record wins for an id depends on
  /// every shard, so deduplicated partials would not merge exactly (the CLI
  /// refuses the combination as a usage error).
  /// - Complexity: O(input bytes); memory O(groups × members + threads × chunk size).
  public func runPartial(paths: [String]) throws(PipelineError) -> PartialState {
    var inputs = try RunInputs(paths: paths)
    return try runPartial(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  /// Runs the job over already opened sources, in order, into a `PartialState`.
  public func runPartial(sources: [any ByteSource]) throws(PipelineError) -> PartialState {
    var inputs = RunInputs(sources: sources)
    return try runPartial(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  func runPartial(
    names: [String], next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> PartialState {
    precondition(!options.dedupe, "dedupe cannot be combined with a partial state")
    let folded = try fold(names: names, fingerprinting: true, next: next)
    return PartialState(
      settings: PartialSettings(options: options, schema: Self.schemaSetting(options)), table: folded.table,
      stats: folded.stats, inputs: folded.inputs)
  }

  /// The schema as a setting that shards must share: `auto`, a built-in name,
  /// or a mapping with every path and the default currency. Not the schema
  /// `auto` detected: an empty or all-rejected shard detects none, and shards of
  /// one `auto` run may hold different schemas, as the inputs of one run may.
  static func schemaSetting(_ options: GroupOptions) -> String {
    guard let schema = options.read.schema else { return "auto; currency \(options.read.defaultCurrency)" }
    let paths = CanonicalField.allCases.compactMap { field in
      schema.paths[field].map { "\(field.name)=\($0.joined(separator: "|"))" }
    }
    return "\(schema.name) (\(paths.joined(separator: ", ")); currency \(schema.defaultCurrency ?? "-"))"
  }
}

extension PartialSettings {
  /// The settings of a `group` run with `options` whose records were read with `schema`
  /// (here, not in Partial/, because the partial format knows settings, not the job's options).
  package init(options: GroupOptions, schema: String) {
    self.init(
      memberLimit: options.memberLimit, schema: schema, timezone: options.read.zone.zone?.identifier,
      maxRecordBytes: options.read.limits.maxRecordBytes, allowTrailingCommas: options.read.allowTrailingCommas)
  }
}
