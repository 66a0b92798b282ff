import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// The text `docctl edit` reads back: `#` lines at the very top are comments, nothing else is.
@Suite struct EditorTextTests {
    private func body(_ text: String) -> String {
        String(decoding: EditorText(Data(text.utf8)).body, as: UTF8.self)
    }

    @Test func onlyWholeLinesAtTheTopStartingWithHashAreComments() {
        #expect(body("# error: x\n#\n{\"a\" : \"#b\"}\n") == "{\"a\" : \"#b\"}\n")
        #expect(body("{\n\"a\" : 1\n# not a comment here\n}") == "{\n\"a\" : 1\n# not a comment here\n}")
        #expect(body("  # indented: JSON's to judge\n1") == "  # indented: JSON's to judge\n1")
        #expect(body("\"#\"") == "\"#\"")
        #expect(body("# only a comment, no newline") == "")
        #expect(body("# crlf\r\n[]\r\n") == "[]\r\n")
    }

    @Test func aFileOfCommentsAndWhiteSpaceIsBlank() {
        #expect(EditorText(Data("# a\n# b\n \n\t\r\n".utf8)).isBlank)
        #expect(EditorText(Data()).isBlank)
        #expect(!EditorText(Data("# a\n0".utf8)).isBlank)
    }

    @Test func parseErrorsNameLinesOfTheReopenedFile() throws {
        let error = DocumentKitError(.invalidDocument, "must not be empty", location: "name")
        let reopened = EditorText.reopening(
            Data("{\n  \"name\" : \"\"\n  \"x\" : 1\n}\n".utf8), after: error, editing: "p.dkproj")
        let lines = String(decoding: reopened, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "# error: name: must not be empty")
        #expect(lines.prefix(EditorText.headerLineCount).allSatisfy { $0.hasPrefix("#") })
        #expect(
            throws: DocumentKitError(
                .malformedInput, "not valid JSON: expected ',' or '}' in an object at line 7, column 3")
        ) {
            try JSONValue.parse(EditorText(reopened).parsable)
        }
        #expect(lines[6] == "  \"x\" : 1")
        #expect(
            try JSONValue.parse(EditorText(Data("\u{FEFF}[1]".utf8)).parsable) == .array([.integer(1)]),
            "a byte order mark is not JSON's concern")
    }

    @Test func anErrorOfSeveralLinesStaysOneCommentLine() {
        let error = DocumentKitError(.malformedInput, "first\nsecond")
        let reopened = String(
            decoding: EditorText.reopening(Data("x".utf8), after: error, editing: "tasks[0] in p.dkproj"), as: UTF8.self
        )
        #expect(reopened.hasPrefix("# The edit of tasks[0] in p.dkproj was not saved:\n# error: first second\n"))
        #expect(String(decoding: EditorText(Data(reopened.utf8)).body, as: UTF8.self) == "x")
    }
}
