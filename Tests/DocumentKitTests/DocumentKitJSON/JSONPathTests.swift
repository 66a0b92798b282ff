import Foundation
import Testing

@testable import DocumentKit

@Suite struct JSONPathTests {
    let document = JSONValue.parseArgument(
        #"{"name": "G", "tasks": [{"id": "A1", "title": "a"}, {"id": "B2", "title": "b"}], "odd key": {"x.y": 1}}"#)

    @Test(arguments: [
        ("name", #""G""#),
        ("$.name", #""G""#),
        ("tasks[1].title", #""b""#),
        ("tasks[-1].title", #""b""#),
        ("tasks[id=a1].title", #""a""#),
        (#"["odd key"]["x.y"]"#, "1"),
        (".", nil)
    ])
    func getsValues(path: String, expected: String?) throws {
        let value = try document.value(at: JSONPath(parsing: path))
        if let expected {
            #expect(value.jsonText(pretty: false) == expected)
        } else {
            #expect(value == document)
        }
    }

    @Test(arguments: [
        ("tasks[", "unclosed '['"),
        ("tasks[x]", "expected an index, '+', '*'"),
        ("tasks[**]", "expected ']'"),
        ("tasks[*", "expected ']'"),
        ("tasks..title", "expected a field name"),
        ("tasks[0]title", "expected '.' or '['"),
        (#"["open"#, "unterminated quoted key")
    ])
    func malformedPathsAreUsageErrors(path: String, message: String) {
        #expect {
            try JSONPath(parsing: path)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .usage && error.message.contains(message) && error.message.contains("'\(path)'")
        }
    }

    @Test func missingValuesSayWhatIsThere() {
        #expect {
            try document.value(at: JSONPath(parsing: "tasks[5]"))
        } throws: { error in
            (error as! DocumentKitError).message
                == "no value at tasks[5]: index 5 is out of range (the array has 2 elements)"
        }
        #expect {
            try document.value(at: JSONPath(parsing: "name.first"))
        } throws: { error in
            (error as! DocumentKitError).code == .notFound
        }
    }

    @Test func setsAppendsAndRemoves() throws {
        var json = document
        try json.setValue(.string("c"), at: JSONPath(parsing: "tasks[+].title"))
        try json.setValue(.bool(true), at: JSONPath(parsing: "tasks[0].done"))
        try json.setValue(.integer(7), at: JSONPath(parsing: "meta.count"))
        #expect(try json.value(at: JSONPath(parsing: "tasks[2]")) == .object(["title": .string("c")]))
        #expect(try json.value(at: JSONPath(parsing: "tasks[0].done")) == .bool(true))
        #expect(try json.value(at: JSONPath(parsing: "meta.count")) == .integer(7))
        try json.removeValue(at: JSONPath(parsing: "tasks[id=B2]"))
        #expect(try json.value(at: JSONPath(parsing: "tasks[1].title")) == .string("c"))
        #expect(throws: DocumentKitError.self) { try json.removeValue(at: JSONPath(parsing: "nothing")) }
    }

    @Test func commandLineValuesAreJSONWhereTheyParse() {
        #expect(JSONValue.parseArgument("42") == .integer(42))
        #expect(JSONValue.parseArgument("4.5") == .number(4.5))
        #expect(JSONValue.parseArgument("true") == .bool(true))
        #expect(JSONValue.parseArgument("null") == .null)
        #expect(JSONValue.parseArgument("Buy milk") == .string("Buy milk"))
        #expect(JSONValue.parseArgument(#"{"title": "x"}"#) == .object(["title": .string("x")]))
    }

    @Test func pathsPrintTheWayTheyAreTyped() throws {
        #expect(try JSONPath(parsing: "tasks[2].title").description == "tasks[2].title")
        #expect(try JSONPath(parsing: #"["a b"].c"#).description == #"["a b"].c"#)
        #expect(try JSONPath(parsing: "").description == ".")
        #expect(try JSONPath(parsing: "tasks[*].title").description == "tasks[*].title")
    }

    @Test(arguments: [
        "name", "tasks[2].title", "tasks[-1]", "tasks[+]", "tasks[+].title", "tasks[id=A1].title", "tasks[*]",
        "tasks[*].title", "columns[*].tasks[*]", "[*]", "[*][0]", #"["a b"].c"#, #"["*"]"#, #"["$"].x"#, #"["["]"#,
        #"["quote\"d"][*]"#, "x[0][*][-2]", "."
    ])
    func printedPathsParseBackToThemselves(text: String) throws {
        let path = try JSONPath(parsing: text)
        #expect(path.description == text)
        #expect(try JSONPath(parsing: path.description) == path)
    }

    @Test func printedPathsOfEveryKindOfStepParseBack() throws {
        // Every kind of step, keys that need quoting among them, in random paths.
        var random = SeededRandom(seed: 14)
        let keys = ["name", "a b", "*", "$", "x.y", "[", "]", "é", "", "-", "q\"", "tab\t"]
        for _ in 0..<500 {
            let components = (0..<Int.random(in: 0..<6, using: &random) + 1).map { _ -> JSONPath.Component in
                switch Int.random(in: 0..<5, using: &random) {
                case 0: .index(Int.random(in: 0..<20, using: &random) - 10)
                case 1: .append
                case 2: .wildcard
                case 3: .match(field: "id", value: "A\(Int.random(in: 0..<9, using: &random))")
                default: .key(keys[Int.random(in: 0..<keys.count, using: &random)])
                }
            }
            let path = JSONPath(components: components)
            #expect(try JSONPath(parsing: path.description) == path, "\(path)")
        }
    }

    @Test func aWildcardParsesAsEveryElement() throws {
        #expect(try JSONPath(parsing: "tasks[*].title").components == [.key("tasks"), .wildcard, .key("title")])
        #expect(
            try JSONPath(parsing: #"tasks["*"]"#).components == [.key("tasks"), .key("*")], "a quoted star is a key")
        #expect(try JSONPath(parsing: "tasks[*].title").hasWildcard)
        #expect(try !JSONPath(parsing: "tasks[0].title").hasWildcard)
    }

    @Test func aWildcardGetsEveryElementsValueInOrder() throws {
        let values = try document.values(at: JSONPath(parsing: "tasks[*].title"))
        #expect(values == [.string("a"), .string("b")])
        #expect(try document.values(at: JSONPath(parsing: "tasks[*]")).count == 2)
        #expect(try document.values(at: JSONPath(parsing: "name")) == [.string("G")], "a plain path is one value")
        let nested = JSONValue.parseArgument(
            #"{"columns": [{"tasks": [1, 2]}, {"tasks": []}, {"other": 0}, {"tasks": [3]}]}"#)
        #expect(
            try nested.values(at: JSONPath(parsing: "columns[*].tasks[*]")) == [.integer(1), .integer(2), .integer(3)])
        #expect(
            try nested.values(at: JSONPath(parsing: "columns[*].tasks[-1]")) == [.integer(2), .integer(3)],
            "elements where the rest names nothing are left out")
        // The one-value lookup refuses a wildcard rather than pick one.
        #expect {
            try document.value(at: JSONPath(parsing: "tasks[*].title"))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .usage
                && error.description == "tasks[*].title: a path with [*] names several values; here it must name one"
        }
    }

    @Test func aWildcardThatReachesNothingSaysWhereItFailedFirst() {
        let cases: [(String, String)] = [
            ("tasks[*].tag", "no value at tasks[*].tag: nothing matches (tasks[0].tag: no such field)"),
            (
                "odd key[*]",
                """
                no value at [\"odd key\"][*]: nothing matches ([\"odd key\"][*]: [\"odd key\"] is an object, not \
                an array)
                """
            ),
            ("name[*]", "no value at name[*]: nothing matches (name[*]: name is a string, not an array)"),
            (
                "tasks[*].title[*]",
                """
                no value at tasks[*].title[*]: nothing matches (tasks[0].title[*]: tasks[0].title is a string, not \
                an array)
                """
            )
        ]
        for (text, message) in cases {
            let path =
                text == "odd key[*]" ? JSONPath(components: [.key("odd key"), .wildcard]) : try! JSONPath(parsing: text)
            #expect {
                try document.values(at: path)
            } throws: { error in
                let error = error as! DocumentKitError
                return error.code == .notFound && error.message == message
            }
        }
        let empty = JSONValue.parseArgument(#"{"tasks": []}"#)
        #expect {
            try empty.values(at: JSONPath(parsing: "tasks[*].title"))
        } throws: { error in
            (error as! DocumentKitError).message
                == "no value at tasks[*].title: nothing matches (tasks[*]: the array is empty)"
        }
    }

    @Test func aWildcardSetsEveryElementInOnePass() throws {
        var json = document
        try json.setValue(.string("done"), at: JSONPath(parsing: "tasks[*].status"))
        #expect(try json.values(at: JSONPath(parsing: "tasks[*].status")) == [.string("done"), .string("done")])
        #expect(
            try json.values(at: JSONPath(parsing: "tasks[*].title")) == [.string("a"), .string("b")], "the rest is kept"
        )
        try json.setValue(.string("x"), at: JSONPath(parsing: "tasks[*].tags[+]"))
        #expect(try json.values(at: JSONPath(parsing: "tasks[*].tags[*]")) == [.string("x"), .string("x")])

        // Nothing to set, or one element that cannot take it: the whole change fails.
        let failures: [(String, String)] = [
            (#"{"tasks": []}"#, "no value at tasks[*]: the array is empty"),
            (#"{}"#, "no value at tasks: no such field"),
            (#"{"tasks": {"a": {}}}"#, "no value at tasks[*]: tasks is an object, not an array"),
            (#"{"tasks": [{}, 3]}"#, "no value at tasks[1].status: tasks[1] is a number, not an object")
        ]
        for (text, message) in failures {
            var json = JSONValue.parseArgument(text)
            #expect {
                try json.setValue(.string("done"), at: JSONPath(parsing: "tasks[*].status"))
            } throws: { error in
                let error = error as! DocumentKitError
                return error.code == .notFound && error.message == message
            }
            #expect(json == JSONValue.parseArgument(text), "unchanged")
        }
    }

    @Test func aWildcardRemovesEveryValueItNames() throws {
        var json = JSONValue.parseArgument(#"{"tasks": [{"t": 1, "tag": "a"}, {"t": 2}, {"t": 3, "tag": "c"}, 4]}"#)
        try json.removeValue(at: JSONPath(parsing: "tasks[*].tag"))
        #expect(json == JSONValue.parseArgument(#"{"tasks": [{"t": 1}, {"t": 2}, {"t": 3}, 4]}"#))
        #expect {
            try json.removeValue(at: JSONPath(parsing: "tasks[*].tag"))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .notFound
                && error.message == "no value at tasks[*].tag: nothing matches (tasks[0].tag: has no field 'tag')"
        }
        var lists = JSONValue.parseArgument(#"{"columns": [{"tasks": [1, 2]}, {"tasks": []}, {"tasks": [3, 4, 5]}]}"#)
        try lists.removeValue(at: JSONPath(parsing: "columns[*].tasks[0]"))
        #expect(
            lists == JSONValue.parseArgument(#"{"columns": [{"tasks": [2]}, {"tasks": []}, {"tasks": [4, 5]}]}"#),
            "an index after [*] is one element of each array: none shifts another")
        for text in ["tasks[*]", "columns[*].tasks[*]"] {
            #expect {
                try lists.removeValue(at: JSONPath(parsing: text))
            } throws: { error in
                let error = error as! DocumentKitError
                return error.code == .usage
                    && error.message.hasPrefix("[*] at the end would remove every element; to empty the array, set ")
            }
        }
    }
}
