/// An event's name as `--event` takes it: the name of one folder, readable on any screen.
package enum EventName {
  /// The longest name taken.
  package static let maximumLength = 64

  /// What is wrong with `name` as an event's name, or `nil` when nothing is.
  package static func problem(_ name: String) -> String? {
    if name.allSatisfy(\.isWhitespace) {
      return "give the event a name, for example --event wedding"
    }
    if name.count > maximumLength {
      return "the name is \(name.count) characters long; at most \(maximumLength)"
    }
    if name == "." || name == ".." || name.hasPrefix(".") {
      return "'\(name)' would be a hidden folder; start the name with a letter or a digit"
    }
    if name.contains("/") {
      return "'\(name)' names a folder inside a folder; give one name without '/', or use "
        + "--output for where the event's folder goes"
    }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return "the name has a control character; use letters, digits, spaces or '-'"
    }
    return nil
  }
}
