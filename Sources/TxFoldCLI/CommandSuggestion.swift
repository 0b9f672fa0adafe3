import ArgumentParser

/// "Did you mean 'group'?" for a mistyped command (`txfold grp`): ArgumentParser suggests
/// close option names but says only "Unexpected argument" for a command.
enum CommandSuggestion {
  /// The command names `txfold` knows.
  static var names: [String] {
    TxFoldCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
  }

  /// The message for `arguments` (without the program name) when its first word is not a
  /// command but is close to one, else `nil` (ArgumentParser then reports it as usual).
  static func message(for arguments: [String]) -> String? {
    guard let word = arguments.first, !word.hasPrefix("-"), word != "help", !names.contains(word) else { return nil }
    let typed = Array(word.lowercased().utf8)
    // Only a plausible typo: a short word's distance is bounded by its length.
    let best = names.map { (name: $0, distance: editDistance(typed, Array($0.utf8))) }
      .filter { $0.distance <= min(2, max(1, (typed.count + 1) / 2)) || $0.name.hasPrefix(word.lowercased()) }
      .min { $0.distance < $1.distance }
    guard let best else { return nil }
    return "Error: Unknown command '\(word)'. Did you mean '\(best.name)'?\n"
      + "Usage: txfold <subcommand>\n  See 'txfold --help' for more information.\n"
  }

  /// Levenshtein distance of two short byte strings (at most a few dozen bytes: a command
  /// line word), in O(m × n) time and O(n) memory, without recursion.
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
