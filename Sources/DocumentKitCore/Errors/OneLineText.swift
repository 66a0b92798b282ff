/// Text from a file (entry names, JSON keys, a `mimetype`, libarchive's messages) made
/// safe to print on one line of a terminal.
///
/// Error messages and validation findings are one line each, which scripts rely on; a
/// hostile name such as `"x\nerror: forged"` or one holding terminal escape sequences
/// must not break that line or drive the terminal. Control characters (C0, DEL and C1)
/// are written as Swift escapes (`\n`, `\t`, `\u{1B}`); everything else is kept.
package enum OneLineText {
    /// `text` with every control character escaped; the text itself when it has none.
    package static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is a control character: U+0000–U+001F, U+007F–U+009F.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
