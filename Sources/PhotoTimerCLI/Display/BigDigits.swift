/// Digits five rows high, for the count in the live view.
enum BigDigits {
  private static let font: [Character: [String]] = [
    "0": ["█████", "█   █", "█   █", "█   █", "█████"],
    "1": ["  █  ", " ██  ", "  █  ", "  █  ", " ███ "],
    "2": ["█████", "    █", "█████", "█    ", "█████"],
    "3": ["█████", "    █", " ████", "    █", "█████"],
    "4": ["█   █", "█   █", "█████", "    █", "    █"],
    "5": ["█████", "█    ", "█████", "    █", "█████"],
    "6": ["█████", "█    ", "█████", "█   █", "█████"],
    "7": ["█████", "    █", "   █ ", "  █  ", "  █  "],
    "8": ["█████", "█   █", "█████", "█   █", "█████"],
    "9": ["█████", "█   █", "█████", "    █", "█████"],
  ]

  /// The five rows of `number`, digits one column apart.
  static func rows(_ number: Int) -> [String] {
    let digits = String(max(number, 0)).compactMap { font[$0] }
    return (0..<5).map { row in digits.map { $0[row] }.joined(separator: "  ") }
  }
}
