import Foundation
import Testing

@testable import DocumentKit

@Suite struct SchemaVersionTests {
    @Test func parsesThreeNumbersAndPrintsThemBack() throws {
        let version = try #require(SchemaVersion("2.10.0"))
        #expect(version == SchemaVersion(2, 10, 0))
        #expect((version.major, version.minor, version.patch) == (2, 10, 0))
        #expect(version.description == "2.10.0")
        #expect(SchemaVersion("0.0.0") == SchemaVersion(0, 0, 0))
        #expect(SchemaVersion("123456789.0.1")?.description == "123456789.0.1")
    }

    @Test(arguments: [
        "", "1", "1.0", "1.0.0.0", "v1.0.0", "01.0.0", "1.00.0", "1.0.0-beta", "1.0.0+build", " 1.0.0",
        "1.0.0 ", "+1.0.0", "-1.0.0", "1..0", "1.0.", "a.b.c", "１.０.０", "1234567890.0.0"
    ])
    func refusesAnythingElse(text: String) {
        #expect(SchemaVersion(text) == nil, "\(text)")
    }

    @Test func ordersByNumbersNotText() throws {
        let texts = ["10.0.0", "2.0.0", "2.0.10", "2.0.9", "2.1.0", "1.99.99", "0.0.1"]
        let sorted = texts.compactMap(SchemaVersion.init).sorted().map(\.description)
        #expect(sorted == ["0.0.1", "1.99.99", "2.0.0", "2.0.9", "2.0.10", "2.1.0", "10.0.0"])
        #expect(SchemaVersion(3, 0, 0) > SchemaVersion(2, 99, 99))
    }

    @Test func codesAsAString() throws {
        let json = try JSONEncoder().encode([SchemaVersion(1, 2, 3)])
        #expect(String(decoding: json, as: UTF8.self) == #"["1.2.3"]"#)
        #expect(try JSONDecoder().decode([SchemaVersion].self, from: json) == [SchemaVersion(1, 2, 3)])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SchemaVersion].self, from: Data(#"["1.2"]"#.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SchemaVersion].self, from: Data("[1]".utf8)) }
    }
}
