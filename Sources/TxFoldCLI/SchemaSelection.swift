import ArgumentParser
import TxFold

/// Turns the input options every reading command shares (`--schema`,
/// `--field`, `--currency`, `--items`) into the library's values, or a usage
/// error naming the option.
enum SchemaSelection {
  /// The schema `--schema`, `--field` and `--currency` describe; `nil` for auto.
  static func schema(named schema: String, fields: [String], currency: String) throws -> RecordSchema? {
    guard !currency.isEmpty, currency.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else {
      throw ValidationError("--currency must be a code such as EUR, not '\(currency)'.")
    }
    var mapped: [(field: CanonicalField, path: String)] = []
    for option in fields {
      let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let field = CanonicalField(name: parts[0]), !parts[1].isEmpty,
        !parts[1].split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
      else {
        let names = CanonicalField.allCases.map(\.name).joined(separator: ", ")
        throw ValidationError("--field must be NAME=PATH with NAME one of \(names), not '\(option)'.")
      }
      mapped.append((field, parts[1]))
    }
    var chosen: RecordSchema?
    switch schema {
    case "auto", "custom":
      guard !mapped.isEmpty else {
        if schema == "custom" { throw ValidationError("--schema custom needs --field NAME=PATH options.") }
        return nil
      }
      chosen = RecordSchema.custom(mapped, defaultCurrency: currency)
    default:
      guard let named = RecordSchema.named(schema) else {
        let names = (["auto"] + RecordSchema.builtIn.map(\.name) + ["custom"]).joined(separator: ", ")
        throw ValidationError("--schema must be one of \(names), not '\(schema)'.")
      }
      chosen = mapped.isEmpty ? named : named.overriding(mapped)
      if chosen?.paths[.currency] == nil { chosen?.defaultCurrency = currency }
    }
    if let missing = chosen?.missingRequiredFields, !missing.isEmpty {
      var message = "--field: the mapping needs \(missing.map { "'\($0.name)=PATH'" }.joined(separator: " and "))."
      if schema == "auto", let first = fields.first {
        // `--field account=PATH` alone reads as a whole mapping of its own; the usual intent is one
        // field more for the schema auto would have chosen, which only a named schema takes.
        message +=
          " Without --schema, --field options describe a schema of their own; to add or replace one field of a"
          + " built-in schema, name it: --schema backbase --field \(first) (or payback, ledger, swile, psd2)."
      }
      throw ValidationError(message)
    }
    return chosen
  }

  /// `--items a.b.booked` as a key path; `nil` when not given.
  static func itemsPath(_ items: String?) throws -> [String]? {
    guard let items else { return nil }
    let path = items.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !path.contains(where: \.isEmpty), path.count <= 64 else {
      throw ValidationError("--items must be a dotted key path such as 'items' or 'a.b.booked', not '\(items)'.")
    }
    return path
  }
}
