import Foundation

/// The one way text reaches an HTML export: every string from a bundle (a title, a name, a
/// message, a path) passes through ``escape(_:)`` before it is written, in text and in
/// attribute values alike, so that `<script>` in a task's title is shown, never run.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references, and control
    /// characters other than tab, line feed and carriage return (which HTML refuses) as
    /// U+FFFD, so that the result is safe in element content and in quoted attribute values.
    public static func escape(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }

    /// Appends `text`, escaped as ``escape(_:)`` escapes it, to `output`: what pages of
    /// 25,000 tasks call for every string, without a string of its own for each.
    public static func append(_ text: String, to output: inout String) {
        // Most strings need nothing: one scan of their bytes, then one append.
        guard text.utf8.contains(where: needsEscaping) else {
            output += text
            return
        }
        var start = text.utf8.startIndex
        var index = start
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if needsEscaping(byte) {
                output += text[start..<index]
                output += replacement(for: byte)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += text[start..<utf8.endIndex]
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0x7F: true
        default: false
        }
    }

    private static func replacement(for byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: "\u{FFFD}"
        }
    }

    /// A path inside the site (`blobs/my photo#1.png`) as a URL path: each component
    /// percent-encoded but for RFC 3986's unreserved characters, so that a name holding
    /// `#`, `?`, `%` or `:` names the file and nothing else (never a scheme, a query or a
    /// fragment).
    static func urlPath(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
