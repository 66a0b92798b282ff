import Foundation
import Testing

@testable import DocumentKit

/// What fuzzing the JSON path parser (fuzz/, target `jsonpath`) found, each kept as the
/// input that showed it. fuzz/README.md says how a finding becomes a test here.
@Suite struct JSONPathFuzzFindingsTests {
    /// `.$` is the member `$`; its description was `$`, which reads as the whole
    /// document. Error messages and locations print paths by their description.
    @Test(arguments: [".$", #"["$"]"#, #"["$"].a"#, "$.$", "$[\"$\"][0]"])
    func aFirstKeyNamedDollarPrintsAsItself(text: String) throws {
        let path = try JSONPath(parsing: text)
        #expect(path.components.first == .key("$"))
        #expect(try JSONPath(parsing: path.description) == path)
    }

    /// A path of 60,000 steps (120 KB, within what one argument may hold) parsed, and
    /// setting it recursed once per step and overflowed the stack. Such a path names
    /// nothing a document can hold (nesting stops at 256), so it is refused as it parses.
    @Test func aPathLongerThanADocumentCanBeDeepIsRefused() throws {
        #expect {
            try JSONPath(parsing: String(repeating: ".a", count: 60_000))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .usage && error.message.contains("more than 256 steps at character 513")
        }
        let longest = try JSONPath(parsing: String(repeating: "[0]", count: JSONPath.maxComponents))
        #expect(longest.components.count == 256)
        var document = JSONValue.object([:])
        try document.setValue(.integer(1), at: JSONPath(parsing: "a" + String(repeating: ".a", count: 255)))
        #expect(try JSONValue.parse(Data(document.jsonText().utf8)) == document)
    }

    @Test func docctlRefusesTheLongPathAsAUsageError() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let before = try Data(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let result = try Run.docctl(["set", "p.dkproj", String(repeating: ".a", count: 60_000), "1"], in: directory.url)
        expectFailure(result, status: 64, containing: "more than 256 steps")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("p.dkproj")) == before)
    }
}
