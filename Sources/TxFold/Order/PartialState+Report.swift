extension PartialState {
  /// The final report: sections and groups in their order (see
  /// `GroupTable.report(stats:members:)`; `members` false leaves the groups' members out).
  public func report(members: Bool = true) -> GroupReport {
    table.report(stats: stats, members: members)
  }
}
