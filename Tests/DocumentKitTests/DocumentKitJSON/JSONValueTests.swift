import Foundation
import Testing

@testable import DocumentKit

@Suite struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(Data(#"{"a": [1, -2.5, 1e3, true, false, null, "x"], "b": {}, "c": []}"#.utf8))
        #expect(
            value
                == .object([
                    "a": .array([
                        .integer(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null, .string("x")
                    ]),
                    "b": .object([:]), "c": .array([])
                ]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(Data(#""tab\tquote\"slash\/back\\ é \u00e9 \ud83d\ude00 \u0001""#.utf8))
        #expect(value == .string("tab\tquote\"slash/back\\ é é 😀 \u{01}"))
    }

    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "duplicate member name 'a' at line 1, column 10"),
        ("[1, 2", "expected ',' or ']' in an array"),
        ("{\"a\" 1}", "expected ':' after a member name"),
        (#""\ud800""#, "unpaired surrogate"),
        ("\"a\u{01}\"", "control character in a string"),
        ("01", "unexpected text after the JSON value"),
        ("[1,]", "unexpected character ']'"),
        ("nul", "unexpected word"),
        ("1e999", "out of range"),
        ("{\n  \"a\": tru\n}", "at line 2, column 8"),
        ("", "unexpected end of input")
    ])
    func refusesMalformedJSONSayingWhere(text: String, message: String) {
        #expect {
            try JSONValue.parse(Data(text.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .malformedInput && error.message.contains(message)
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: DocumentKitError.self) { try JSONValue.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
    }

    @Test func limitsNestingWithoutRecursingPastTheLimit() throws {
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(throws: DocumentKitError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        _ = try JSONValue.parse(Data(fine.utf8))
    }

    @Test func serializesWithSortedKeysInBothLayouts() throws {
        let value = JSONValue.object([
            "b": .array([.integer(1), .string("é\n\"")]), "a": .object([:]), "c": .array([]), "d": .number(0.5)
        ])
        #expect(value.jsonText(pretty: false) == #"{"a":{},"b":[1,"é\n\""],"c":[],"d":0.5}"#)
        #expect(
            value.jsonText() == """
                {
                  "a" : {},
                  "b" : [
                    1,
                    "é\\n\\""
                  ],
                  "c" : [],
                  "d" : 0.5
                }
                """)
        #expect(try JSONValue.parse(value.encoded()) == value)
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable)) func agreesWithPythonsJSONOnARichDocument() throws {
        let script = """
            import json, random, sys
            rng = random.Random(7)
            def value(depth):
                kind = rng.randrange(7 if depth < 6 else 4)
                if kind == 0: return rng.randrange(-10**12, 10**12)
                if kind == 1: return rng.choice([True, False, None])
                if kind == 2: return rng.random() * 1000
                if kind == 3: return "".join(chr(rng.choice([0x41, 0x22, 0x5C, 0x0A, 0xE9, 0x1F600, 0x7F, 0x2028])) for _ in range(rng.randrange(8)))
                if kind in (4, 5): return [value(depth + 1) for _ in range(rng.randrange(4))]
                return {"k%d%s" % (i, chr(0xE9)): value(depth + 1) for i in range(rng.randrange(4))}
            doc = [value(0) for _ in range(300)]
            text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
            sys.stdout.write(text)
            """
        let generated = try ExternalTool.python(script)
        let parsed = try JSONValue.parse(generated.standardOutput)
        let checked = try ExternalTool.python3.run(
            [
                "-c",
                "import json, sys; a = json.loads(sys.argv[1]); b = json.loads(sys.stdin.buffer.read()); print(a == b)",
                generated.output
            ],
            input: parsed.encoded(pretty: false))
        #expect(checked.output == "True\n", "\(checked.standardError)")
    }
}
