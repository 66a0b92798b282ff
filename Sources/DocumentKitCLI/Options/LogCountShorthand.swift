/// git's spellings of `log`'s count, which the argument parser does not take as they are:
/// `-n1` (the value joined to its short option) and `-3` (the count as the option).
/// Both become `-n N` before parsing, so `docctl log B -3` does what `git log -3` does.
enum LogCountShorthand {
    /// The options of `log` that take a value: a token after one of them is that value
    /// (`--grep -3` looks for "-3"), and stays as it is.
    private static let valueOptions: Set<String> = ["-n", "--max-count", "--author", "--grep", "--since", "--until"]

    /// `arguments` with `-nN` and `-N` of a `log` command as `-n N`; any other command's
    /// arguments, and everything after `--`, as they are.
    static func expanded(_ arguments: [String]) -> [String] {
        guard arguments.first == "log" else { return arguments }
        var result: [String] = []
        var optionsEnded = false
        for argument in arguments {
            if argument == "--" { optionsEnded = true }
            if !optionsEnded, !valueOptions.contains(result.last ?? ""), let count = count(in: argument) {
                result += ["-n", count]
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// The digits of `-nDIGITS` or `-DIGITS`.
    private static func count(in argument: String) -> String? {
        let digits = argument.hasPrefix("-n") ? argument.dropFirst(2) : argument.dropFirst()
        guard argument.hasPrefix("-"), !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return String(digits)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
