import Foundation
import Testing

@testable import DocumentKit

/// Errors and findings are one line each, whatever the file holds: names, JSON keys and a
/// `mimetype` come from the file, and a newline or a terminal escape in them must neither
/// start a second line (a forged `error:` line) nor reach the terminal.
@Suite struct OneLineMessageTests {
    @Test func controlCharactersAreEscaped() {
        #expect(OneLineText.escaping("plain é 日本") == "plain é 日本")
        #expect(OneLineText.escaping("a\nerror: forged") == #"a\nerror: forged"#)
        #expect(OneLineText.escaping("\u{1B}[2J\t\r\u{0}\u{7F}\u{85}") == #"\u{1B}[2J\t\r\u{0}\u{7F}\u{85}"#)
    }

    @Test func anErrorIsOneLine() {
        let error = DocumentKitError(.malformedInput, "bad\nthing", path: "a\nb.dkproj", location: "entry 'x\u{1B}y'")
        #expect(error.description == #"a\nb.dkproj: entry 'x\u{1B}y': bad\nthing"#)
        let finding = ValidationFinding("mimetype.mismatch", .error, "says 'x\ny'", entry: "mimetype")
        #expect(!finding.description.contains("\n"))
    }

    /// A `mimetype` holding a newline: `validate` still prints one line per finding.
    @Test func aMimetypeWithANewlineStaysOnItsLine() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let script = #"""
            import sys, zipfile
            src = zipfile.ZipFile(sys.argv[1])
            with zipfile.ZipFile(sys.argv[2], "w") as out:
                for info in src.infolist():
                    data = b"text/plain\nerror: forged" if info.filename == "mimetype" else src.read(info)
                    out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), data)
            """#
        let made = try ExternalTool.python(script, [directory.path("p.dkproj"), directory.path("m.dkproj")])
        try #require(made.status == 0, "\(made.standardError)")
        let result = try Run.docctl(["validate", "m.dkproj"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").count == 2, "\(result.output)")
        #expect(result.output.contains(#"the mimetype entry says 'text/plain\nerror: forged'"#), "\(result.output)")
    }
}
