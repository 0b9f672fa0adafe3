extension GroupPipeline {
  /// Runs the job like `run(paths:)` but stops before ordering: the result is
  /// a mergeable `PartialState` (`txfold group --emit partial`).
  ///
  /// `options.dedupe` must be `false`: which record wins for an id depends on
  /// every shard, so deduplicated partials would not merge exactly (the CLI
  /// refuses the combination as a usage error).
  /// - Complexity: O(input bytes); memory O(groups × members + threads × chunk size).
  public func runPartial(paths: [String]) throws(PipelineError) -> PartialState {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.open(path: path)
      } catch {
        throw .input(error)
      }
    }
    var index = 0
    return try runPartial(names: paths) { () throws(PipelineError) -> (any ByteSource)? in
      guard index < paths.count else { return nil }
      defer { index += 1 }
      do throws(InputError) {
        return try InputOpener.open(path: paths[index])
      } catch {
        throw .input(error)
      }
    }
  }

  /// Runs the job over already opened sources, in order, into a `PartialState`.
  public func runPartial(sources: [any ByteSource]) throws(PipelineError) -> PartialState {
    var index = 0
    return try runPartial(names: sources.map(\.name)) { () throws(PipelineError) -> (any ByteSource)? in
      guard index < sources.count else { return nil }
      defer { index += 1 }
      return sources[index]
    }
  }

  func runPartial(
    names: [String], next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> PartialState {
    precondition(!options.dedupe, "--dedupe cannot be combined with a partial state")
    let folded = try fold(names: names, next: next)
    return PartialState(
      settings: PartialSettings(options: options, schema: Self.schemaSetting(options)), table: folded.table,
      stats: folded.stats)
  }

  /// The schema as a setting that shards must share: `auto`, a built-in name,
  /// or a mapping with every path and the default currency. Not the schema
  /// `auto` detected: an empty or all-rejected shard detects none, and shards of
  /// one `auto` run may hold different schemas, as the inputs of one run may.
  static func schemaSetting(_ options: GroupOptions) -> String {
    guard let schema = options.schema else { return "auto; currency \(options.defaultCurrency)" }
    let paths = CanonicalField.allCases.compactMap { field in
      schema.paths[field].map { "\(field.name)=\($0.joined(separator: "|"))" }
    }
    return "\(schema.name) (\(paths.joined(separator: ", ")); currency \(schema.defaultCurrency ?? "-"))"
  }
}
