@testable import DocumentKit
import Foundation
import Testing

@Suite struct JSONPathTests {
    let document = JSONValue.parseArgument(#"{"name": "G", "tasks": [{"id": "A1", "title": "a"}, {"id": "B2", "title": "b"}], "odd key": {"x.y": 1}}"#)

    @Test(arguments: [
        ("name", #""G""#),
        ("$.name", #""G""#),
        ("tasks[1].title", #""b""#),
        ("tasks[-1].title", #""b""#),
        ("tasks[id=a1].title", #""a""#),
        (#"["odd key"]["x.y"]"#, "1"),
        (".", nil),
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
        ("tasks[x]", "expected an index"),
        ("tasks..title", "expected a field name"),
        ("tasks[0]title", "expected '.' or '['"),
        (#"["open"#, "unterminated quoted key"),
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
            (error as! DocumentKitError).message == "no value at tasks[5]: index 5 is out of range (the array has 2 elements)"
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
    }
}
