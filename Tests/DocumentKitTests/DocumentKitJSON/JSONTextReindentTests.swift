import DocumentKitJSON
import Foundation
import Testing

@testable import DocumentKit

/// A record encoded alone, indented to sit where it goes in the document's text.
@Suite struct JSONTextReindentTests {
    private func reindented(_ text: String, levels: Int) -> String {
        String(decoding: JSONText.reindented(Data(text.utf8), levels: levels), as: UTF8.self)
    }

    @Test func indentsEveryLineButTheFirst() {
        #expect(reindented("{\n  \"a\" : 1\n}", levels: 2) == "{\n      \"a\" : 1\n    }")
        #expect(reindented("[\n1,\n2\n]\n", levels: 1) == "[\n  1,\n  2\n  ]\n  ")
    }

    @Test func leavesOneLineAsItIs() {
        #expect(reindented("\"one line\"", levels: 3) == "\"one line\"")
        #expect(reindented("", levels: 2) == "")
    }
}
