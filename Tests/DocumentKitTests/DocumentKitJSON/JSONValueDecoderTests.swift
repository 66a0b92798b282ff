import DocumentKitJSON
import Foundation
import Testing

@testable import DocumentKit

/// Decoding from a parsed tree, as a one-record edit decodes the records it changes: the
/// same values `JSONDecoder` gives for the same text.
@Suite struct JSONValueDecoderTests {
    private struct Record: Codable, Equatable {
        var id: UUID
        var due: Date?
        var payload: Data
        var link: URL
        var tags: [String]
    }

    private static let text = #"""
        {"id": "00000007-0000-4000-8000-000000000007", "due": "2026-11-22", "payload": "aGVsbG8=",
         "link": "https://example.com/a?b=c", "tags": ["x", "y"]}
        """#

    @Test func decodesAsJSONDecoderDoes() throws {
        let tree = try JSONValue.parse(Data(Self.text.utf8))
        let fromTree = try JSONValueDecoder().decode(Record.self, from: tree)
        let fromText = try DocumentDates.decoder().decode(Record.self, from: Data(Self.text.utf8))
        #expect(fromTree == fromText)
        #expect(fromTree.payload == Data("hello".utf8))
        #expect(fromTree.link.absoluteString == "https://example.com/a?b=c")
    }

    @Test func refusesDataThatIsNotBase64() throws {
        let tree = try JSONValue.parse(Data(Self.text.replacingOccurrences(of: "aGVsbG8=", with: "not base64!").utf8))
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Record.self, from: tree) }
    }

    private struct Contextual: Decodable {
        var seen: String?
        init(from decoder: any Decoder) throws {
            seen = decoder.userInfo[Self.key] as? String
        }
        static let key = CodingUserInfoKey(rawValue: "test.context")!
    }

    @Test func handsItsUserInfoToNestedValues() throws {
        var decoder = JSONValueDecoder()
        decoder.userInfo[Contextual.key] = "context"
        let nested = try decoder.decode(
            [String: [Contextual]].self, from: JSONValue.parse(Data(#"{"a": [{}, {}]}"#.utf8)))
        #expect(nested["a"]?.map(\.seen) == ["context", "context"])
    }
}
