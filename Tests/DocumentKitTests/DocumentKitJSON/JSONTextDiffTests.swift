import Foundation
import Testing

@testable import DocumentKit

/// `JSONValue.changes(from:to:)` on JSON text gives exactly what the tree diff gives on the
/// parsed texts: the same changes in the same order, or the same error.
@Suite struct JSONTextDiffTests {
    /// The tree diff's result for two texts, or the error parsing them throws.
    private func treeDiff(_ old: Data, _ new: Data, depthLimit: Int = 256) -> Result<[JSONChange], DocumentKitError> {
        Result { () throws(DocumentKitError) in
            do {
                return try JSONValue.parse(old, depthLimit: depthLimit).changes(
                    to: JSONValue.parse(new, depthLimit: depthLimit))
            } catch let error as DocumentKitError {
                throw error
            } catch {
                Issue.record("unexpected error \(error)")
                return []
            }
        }
    }

    private func textDiff(_ old: Data, _ new: Data, depthLimit: Int = 256) -> Result<[JSONChange], DocumentKitError> {
        Result { () throws(DocumentKitError) in
            do {
                return try JSONValue.changes(from: old, to: new, depthLimit: depthLimit)
            } catch let error as DocumentKitError {
                throw error
            } catch {
                Issue.record("unexpected error \(error)")
                return []
            }
        }
    }

    private func expectSameAsTreeDiff(
        _ old: Data, _ new: Data, depthLimit: Int = 256, _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = treeDiff(old, new, depthLimit: depthLimit)
        let actual = textDiff(old, new, depthLimit: depthLimit)
        #expect(
            actual == expected,
            """
            \(comment())
            old: \(String(decoding: old, as: UTF8.self))
            new: \(String(decoding: new, as: UTF8.self))
            """, sourceLocation: sourceLocation)
    }

    private func changes(_ old: String, _ new: String) throws -> [String] {
        let changes = try JSONValue.changes(from: Data(old.utf8), to: Data(new.utf8))
        #expect(try changes == treeDiff(Data(old.utf8), Data(new.utf8)).get())
        return changes.map { change in
            [
                change.kind.rawValue, change.path, change.old?.jsonText(pretty: false),
                change.new?.jsonText(pretty: false)
            ]
            .compactMap { $0 }.joined(separator: " ")
        }
    }

    // MARK: Hand-written cases

    @Test func membersInSortedOrderWithTheirValues() throws {
        #expect(
            try changes(
                #"{"b": 1, "a": {"x": [1, 2]}, "c": "same", "d": true}"#,
                #"{"c": "same", "e": null, "b": 2, "a": {"x": [1, 3, 4]}}"#) == [
                    "changed a.x[1] 2 3",
                    "added a.x[2] 4",
                    "changed b 1 2",
                    "removed d true",
                    "added e null"
                ])
    }

    @Test func tasksAreMatchedByIdAndReorderingIsReported() throws {
        let old =
            #"{"tasks": [{"id": "A", "title": "one"}, {"id": "B", "title": "two"}, {"id": "C", "title": "three"}]}"#
        let new =
            #"{"tasks": [{"id": "C", "title": "three"}, {"title": "2", "id": "B"}, {"id": "D", "title": "four"}]}"#
        #expect(
            try changes(old, new) == [
                #"removed tasks[id=A] {"id":"A","title":"one"}"#,
                "changed tasks[id=B].title \"two\" \"2\"",
                #"added tasks[id=D] {"id":"D","title":"four"}"#,
                #"reordered tasks ["B","C"] ["C","B"]"#
            ])
    }

    @Test func arraysWithoutDistinctIdsAreComparedByPosition() throws {
        #expect(
            try changes(
                #"[{"id": "A", "v": 1}, {"id": "A", "v": 2}]"#, #"[{"id": "A", "v": 1}, {"id": "A", "v": 3}, 5]"#) == [
                    "changed [1].v 2 3",
                    "added [2] 5"
                ])
        #expect(try changes(#"[{"id": 1}]"#, #"[{"id": 2}]"#) == ["changed [0].id 1 2"])
        #expect(try changes("[]", #"[{"id": "A"}]"#) == [#"added [id=A] {"id":"A"}"#])
    }

    @Test func blobReferencesAreSingleValues() throws {
        let old = #"{"thumbnail": {"$blob": "aa", "size": 1, "mediaType": "image/png"}}"#
        let new = #"{"thumbnail": {"$blob": "bb", "size": 1, "mediaType": "image/png"}}"#
        #expect(
            try changes(old, new) == [
                #"changed thumbnail {"$blob":"aa","mediaType":"image/png","size":1} {"$blob":"bb","mediaType":"image/png","size":1}"#
            ])
        let respelled = #"{ "thumbnail" : { "size" : 1, "mediaType" : "image\/png", "$blob" : "\u0061a" } }"#
        #expect(try changes(old, respelled) == [])
        // A `$blob` that is not a string does not make a blob reference.
        #expect(
            try changes(#"{"t": {"$blob": 1, "size": 1}}"#, #"{"t": {"$blob": 1, "size": 2}}"#) == [
                "changed t.size 1 2"
            ])
    }

    @Test func differencesOfSpellingAloneAreNoChanges() throws {
        let pretty = GeneratedProject.document(taskCount: 50, seed: 3).encoded()
        let compact = try JSONValue.parse(pretty).encoded(pretty: false)
        #expect(try JSONValue.changes(from: pretty, to: compact) == [])
        #expect(
            try changes(
                #"{"a": "\u0041\/", "b": 1e2, "c": [1, 2], "d": "é"}"#,
                "{\"d\":\"e\u{301}\",\"c\":[1,2],\"b\":100.0,\"a\":\"A/\"}") == [])
        // 1 and 1.0 are different values (an integer and a double), as in the tree diff.
        #expect(try changes(#"{"n": 1}"#, #"{"n": 1.0}"#) == ["changed n 1 1"])
    }

    @Test func topLevelValuesOfAnyKind() throws {
        #expect(try changes("1", "2") == ["changed . 1 2"])
        #expect(try changes(" \"x\" ", "\u{FEFF}\"x\"") == [])
        #expect(try changes("{}", "[]") == ["changed . {} []"])
        #expect(try changes(#"{"a": [1]}"#, #"{"a": {"0": 1}}"#) == [#"changed a [1] {"0":1}"#])
        #expect(try changes("[1, 2, 3]", "[1]") == ["removed [1] 2", "removed [2] 3"])
    }

    // MARK: Equivalence with the tree diff

    @Test(arguments: 0..<16)
    func agreesWithTheTreeDiffOnRandomDocumentsAndEdits(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for round in 0..<60 {
            let old = RandomJSON.value(using: &random)
            let new = Bool.random(using: &random) ? RandomJSON.edited(old, using: &random) : old
            let oldText = RandomJSON.text(old, using: &random)
            let newText = RandomJSON.text(new, using: &random)
            expectSameAsTreeDiff(oldText, newText, "seed \(seed), round \(round)")
            if let oldValue = try? JSONValue.parse(oldText), let newValue = try? JSONValue.parse(newText),
                oldValue == newValue
            {
                #expect(
                    (try? JSONValue.changes(from: oldText, to: newText)) == [], "the same value, written differently")
            }
        }
    }

    @Test(arguments: 0..<4)
    func agreesWithTheTreeDiffOnEditedProjects(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let document = GeneratedProject.document(taskCount: 200, seed: seed)
        guard case .object(let members) = document, case .array(let tasks) = members["tasks"], tasks.count == 200 else {
            Issue.record("the generated project has no 200 tasks: \(document)")
            return
        }
        for _ in 0..<10 {
            var edited = tasks
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<edited.count, using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0: edited.remove(at: index)
                case 1: edited.insert(GeneratedProject.task(1_000 + index, using: &random), at: index)
                case 2: edited.swapAt(index, Int.random(in: 0..<edited.count, using: &random))
                case 3: edited[index] = RandomJSON.edited(edited[index], using: &random)
                case 4:
                    guard case .object(var task) = edited[index] else { continue }
                    task["attachments"] = .array([RandomJSON.blobReference(using: &random)])
                    edited[index] = .object(task)
                default:
                    guard case .object(var task) = edited[index] else { continue }
                    task["title"] = .string(GeneratedProject.phrase(3, using: &random))
                    edited[index] = .object(task)
                }
            }
            var newMembers = members
            newMembers["tasks"] = .array(edited)
            if Bool.random(using: &random) { newMembers["name"] = .string("Renamed") }
            let oldText = RandomJSON.text(document, using: &random)
            let newText = RandomJSON.text(.object(newMembers), using: &random)
            expectSameAsTreeDiff(oldText, newText)
            expectSameAsTreeDiff(document.encoded(), JSONValue.object(newMembers).encoded())
        }
    }

    // MARK: Malformed text

    @Test(arguments: [
        #"{"a": 1, "a": 2}"#, "[1, 2", "{\"a\" 1}", #""\ud800""#, "\"a\u{01}\"", "01", "[1,]", "nul", "1e999",
        "{\n  \"a\": tru\n}", "",
        #"{"a": [{"b": 1, "b": 2}]}"#, #"{"x": "\q"}"#, #"{"x": "a\u12"}"#, "[\"\\n\u{01}\"]", "\"abc", "\"abc\\",
        "[1e400, 2]", "[" + String(repeating: "9", count: 400) + "]", "[-]", "[1.]", "[1e+]", #"{"a": 1 "b": 2}"#,
        "{1: 2}", "[1] x",
        #"{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"k9":0,"k10":0,"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k17":0,"k18":0,"k3":0}"#,
        "{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}"
    ])
    func refusesMalformedTextWithTheParsersError(text: String) {
        let bad = Data(text.utf8)
        let good = Data(#"{"a": [1, 2]}"#.utf8)
        guard case .failure(let error) = treeDiff(bad, good) else {
            Issue.record("the parser accepts \(text)")
            return
        }
        #expect(textDiff(bad, good) == .failure(error))
        #expect(textDiff(good, bad) == .failure(error))
        #expect(textDiff(bad, bad) == .failure(error), "identical bytes are still checked")
    }

    @Test func refusesInvalidUTF8WhereTheParserDoes() {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC3, 0x5C, 0x6E, 0xA9, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x01, 0x22],
            [0x22, 0xC3, 0xA9, 0x22],
            [0x5B, 0x22, 0xE2, 0x82, 0xAC, 0x22, 0x2C, 0x22, 0xE2, 0x82, 0x22, 0x5D],
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]
        ]
        for bytes in cases { expectSameAsTreeDiff(Data(bytes), Data("1".utf8)) }
    }

    @Test func respectsTheDepthLimit() {
        let deep = Data((String(repeating: "[", count: 257) + String(repeating: "]", count: 257)).utf8)
        let fine = Data((String(repeating: "[", count: 256) + "1" + String(repeating: "]", count: 256)).utf8)
        expectSameAsTreeDiff(deep, fine)
        expectSameAsTreeDiff(
            fine, Data((String(repeating: "[", count: 256) + "2" + String(repeating: "]", count: 256)).utf8))
        expectSameAsTreeDiff(Data(#"{"a": {"b": [1]}}"#.utf8), Data(#"{"a": {"b": [2]}}"#.utf8), depthLimit: 3)
        expectSameAsTreeDiff(Data(#"{"a": {"b": [1]}}"#.utf8), Data(#"{"a": {"b": [2]}}"#.utf8), depthLimit: 2)
    }

    @Test(arguments: 0..<4)
    func damagedTextFailsOrDiffsAsTheParserSays(seed: UInt64) {
        var random = SeededRandom(seed: 100 + seed)
        let alphabet = Array(#"{}[]",:\"u0aé 1e.-+tfn/"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0x80]
        for _ in 0..<300 {
            let value = RandomJSON.value(using: &random)
            var text = [UInt8](RandomJSON.text(value, using: &random))
            for _ in 0..<Int.random(in: 1...3, using: &random) where !text.isEmpty {
                let position = Int.random(in: 0..<text.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: text[position] = alphabet.randomElement(using: &random)!
                case 1: text.remove(at: position)
                default: text.insert(alphabet.randomElement(using: &random)!, at: position)
                }
            }
            let other = RandomJSON.text(RandomJSON.edited(value, using: &random), using: &random)
            expectSameAsTreeDiff(Data(text), other)
            expectSameAsTreeDiff(other, Data(text))
        }
    }
}
