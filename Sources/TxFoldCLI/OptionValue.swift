import ArgumentParser

/// An option's value read by `parse`, or the usage error every option gives
/// for a value it does not take: "`option` must be `wanted`, not 'value'."
func optionValue<Value>(
  _ text: String, of option: String, wanted: String, _ parse: (String) -> Value?
) throws -> Value {
  guard let value = parse(text) else { throw ValidationError("\(option) must be \(wanted), not '\(text)'.") }
  return value
}
