import DocumentKit
import Foundation

/// The text of a `DocumentEditSession`'s file: after a refused save, `#` comment lines at
/// the top saying why (as `git commit` writes its `#` lines), then the user's JSON.
///
/// Only whole lines at the very top that start with `#` are comments. JSON cannot start
/// with `#`, and its strings cannot span lines, so no JSON text loses anything: a `#` in a
/// string, or a `#` line further down (which is no JSON), is left for the parser to judge.
struct EditorText {
    /// How many lines the header of a reopened file has. Text is parsed as if it stood
    /// below a header this long, so that a line number in a parse error is the line as the
    /// user sees it once the file reopens with that error at its top.
    static let headerLineCount = 4

    /// The file as the editor left it.
    let saved: Data
    /// What follows the comment lines: the user's JSON.
    let body: Data

    init(_ saved: Data) {
        self.saved = saved
        var start = saved.startIndex
        while start < saved.endIndex, saved[start] == UInt8(ascii: "#") {
            start = saved[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? saved.endIndex
        }
        body = Data(saved[start...])
    }

    /// Whether there is nothing but comments and white space: the user emptied the file.
    var isBlank: Bool {
        body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The body as the JSON parser is given it: below as many empty lines as a header has
    /// (see `headerLineCount`), and without a byte order mark, which some editors add.
    var parsable: Data {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let json = body.starts(with: bom) ? body.dropFirst(bom.count) : body[...]
        return Data(repeating: 0x0A, count: Self.headerLineCount) + json
    }

    /// The file to reopen the editor on after `error` refused `body`: the header, then
    /// the user's text exactly as they left it.
    static func reopening(_ body: Data, after error: DocumentKitError, editing what: String) -> Data {
        let reason = [error.location, error.message].compactMap { $0 }.joined(separator: ": ")
        let header = [
            "# The edit of \(what) was not saved:",
            "# error: \(reason.split(whereSeparator: \.isNewline).joined(separator: " "))",
            "# Correct the JSON below and save to try again, or empty the file to abort.",
            "# Lines starting with '#' at the top are ignored."
        ]
        assert(header.count == headerLineCount)
        return Data((header.joined(separator: "\n") + "\n").utf8) + body
    }
}
