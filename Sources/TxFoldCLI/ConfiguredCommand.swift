import ArgumentParser

/// A command whose options are checked by building its `Configuration`:
/// `validate()` builds it so that a wrong option is a usage error before
/// anything is opened, and `run()` builds it again to use it.
protocol ConfiguredCommand: ParsableCommand {
  associatedtype Configuration
  func configuration() throws -> Configuration
}

extension ConfiguredCommand {
  func validate() throws {
    _ = try configuration()
  }
}
