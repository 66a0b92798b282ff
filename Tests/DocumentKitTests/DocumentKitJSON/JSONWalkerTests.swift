import Foundation
import Testing

@testable import DocumentKit

/// The one walker reads JSON text for both building values and only checking them; these
/// pin that the two agree on every text, and what the trusting skim of checked text does.
@Suite struct JSONWalkerTests {
    /// The message of parsing and of checking `text`, or `nil` for the one that accepts it.
    private func outcomes(_ text: Data) -> (parse: String?, check: String?) {
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch { return "\(error)" }
        }
        return (message { _ = try JSONValue.parse(text) }, message { try JSONValue.check(text) })
    }

    @Test(arguments: [
        #"{"a": 1, "\u0061": 2}"#,  // the same name, once escaped
        "{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}",  // the same name in two normal forms
        #"{"a": {"b": 1, "b": 2}}"#,
        #"["a\u00e9\n", "\ud83d\ude00", "x\"#,
        "[\"\\n\u{01}\"]",  // a control character after an escape
        "[\"\u{01}\"]",
        #"["\uDC00"]"#, #"["\u12G4"]"#, #"["\q"]"#,
        "[1.5e400]", "[123456789012345678901234]", "[-0.5e-3, 1E+2]",
        "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11,\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17,\"a\":18}",
        "{\"\\u0041\": 1, \"A\": 2}",
        "\u{FEFF}{}", "  [true, false, null]  x"
    ])
    func buildingAndCheckingGiveTheSameVerdictAndMessage(text: String) {
        let result = outcomes(Data(text.utf8))
        #expect(result.parse == result.check)
    }

    @Test func invalidUTF8IsRefusedTheSameWayByBoth() {
        let text = Data(#"["ok", "bad "#.utf8) + Data([0xC3, 0x28]) + Data(#""]"#.utf8)
        let result = outcomes(text)
        #expect(result.parse == "not valid JSON: invalid UTF-8 in a string at line 1, column 16")
        #expect(result.check == result.parse)
    }

    @Test func randomTextsAndTheirCutsAgree() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<300 {
            let text = RandomJSON.text(RandomJSON.value(using: &random), using: &random)
            let whole = outcomes(text)
            #expect(whole.parse == nil && whole.check == nil)
            // Every text cut short is refused by both, with the same message.
            let cut = text.prefix(Int.random(in: 0..<text.count, using: &random))
            let result = outcomes(Data(cut))
            #expect(result.parse == result.check)
        }
    }

    @Test func escapedNamesAreDecodedForTheDuplicateMessage() {
        #expect(
            outcomes(Data(#"{"tab\t": 1, "tab\u0009": 2}"#.utf8)).check
                == "not valid JSON: duplicate member name 'tab\\t' at line 1, column 14")  // one line
    }

    @Test func theSkimFollowsStringsAndBracketsAndStopsAtTheEnd() {
        func end(_ text: String, at start: Int = 0) -> Int? {
            Data(text.utf8).withUnsafeBytes { JSONTextScanner.endOfValue(in: $0, at: start) }
        }
        #expect(end(#"{"a": "}\"]", "b": [1, {"c": "\\"}]} tail"#) == 36)
        #expect(end(#""x\\" rest"#) == 5)
        #expect(end("12.5e3, 4") == 6)
        #expect(end("true") == 4)
        // Text that ends inside a value: no end, and no byte read past the text.
        #expect(end(#"{"a": "}"#) == nil)
        #expect(end(#"["\"]"#) == nil)
        #expect(end("[[1]") == nil)
        #expect(end("") == nil)
    }

    @Test func theManifestScanFindsMembersAndGivesUpOnWhatItCannotReadPlainly() throws {
        func layout(_ text: String) -> ManifestLayout? {
            Data(text.utf8).withUnsafeBytes { bytes in
                var scan = ManifestScan(bytes: bytes)
                return scan.layout()
            }
        }
        let manifest = #"{"format": "x", "versions": [{"id": "v1", "n": ["]"]}, {"n": 2, "id": "v2"}], "head": "v1"}"#
        let found = try #require(layout(manifest))
        #expect(found.members.keys.sorted() == ["format", "head", "versions"])
        #expect(found.members["head"] == 86..<90)
        #expect(found.versions.map(\.id) == [37..<39, 71..<73])
        #expect(found.versions.map(\.range) == [29..<53, 55..<75])
        for cut in 1..<manifest.utf8.count {
            #expect(layout(String(manifest.utf8.prefix(cut))!) == nil, "cut at \(cut)")
        }
        #expect(layout(#"{"versions": [{"id": "v\u0032"}]}"#) == nil)  // an id whose bytes are not its text
        #expect(layout(#"{"head": 1, "head": 2}"#) == nil)
    }
}
