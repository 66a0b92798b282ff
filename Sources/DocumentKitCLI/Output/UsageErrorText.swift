/// A usage error of the argument parser as one line: its full message keeps the allowed
/// values (or the suggestions) on lines of their own below the first, and the usage after
/// them, which one line cannot hold; the values are what teaches, so they stay.
enum UsageErrorText {
    /// `The value 'rar' is invalid for '--format <format>'. Please provide one of the
    /// following:` and the list `- zip`, `- tar`, … becomes `the value 'rar' is invalid for
    /// '--format <format>'; one of: zip, tar, …`. The usage and help lines are left out.
    static func oneLine(_ message: String) -> String {
        var sentences: [String] = []
        var values: [String] = []
        for line in message.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("Usage:") || line.hasPrefix("Help:") || line.hasPrefix("See '") { break }
            if line.hasPrefix("- ") {
                values.append(String(line.dropFirst(2)))
            } else if !line.isEmpty {
                sentences.append(line)
            }
        }
        var text = sentences.joined(separator: " ")
        if text.hasPrefix("Error: ") { text.removeFirst(7) }
        if !values.isEmpty {
            text = text.replacingOccurrences(of: ". Please provide one of the following:", with: ";")
            text = text.replacingOccurrences(of: " Please provide one of the following:", with: "")
            text += " one of: " + values.joined(separator: ", ")
        }
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
