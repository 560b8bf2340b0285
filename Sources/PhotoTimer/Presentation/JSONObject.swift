/// A JSON object written in the order its members were added.
package struct JSONObject {
  /// Creates an empty object.
  package init() {}

  private var members: [String] = []

  package mutating func add(_ key: String, _ value: String) { addRaw(key, Self.quote(value)) }
  package mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
  package mutating func add(_ key: String, _ value: Double) {
    addRaw(key, value.isFinite ? Self.number(value) : "null")
  }
  package mutating func addRaw(_ key: String, _ json: String) {
    members.append("\(Self.quote(key)):\(json)")
  }

  package var text: String { "{" + members.joined(separator: ",") + "}" }

  /// A number with at most six decimals and no exponent.
  package static func number(_ value: Double) -> String {
    let scaled = (value * 1_000_000).rounded()
    let negative = scaled < 0
    let magnitude = Int64(abs(scaled))
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let whole = "\(negative ? "-" : "")\(magnitude / 1_000_000)"
    return fraction.isEmpty ? whole : "\(whole).\(fraction)"
  }

  /// A JSON string literal.
  package static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
