import Foundation
import Testing

@testable import DocumentKit

/// The three-way merge `docctl pull` builds on: what each rule keeps, what conflicts, and
/// the order of merged records.
@Suite struct JSONMergeTests {
    private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    private func merge(_ base: String, _ ours: String, _ theirs: String) throws -> JSONMerge.Result {
        JSONMerge.merge(base: try json(base), ours: try json(ours), theirs: try json(theirs))
    }

    private func task(_ id: String, _ title: String, _ extra: String = "") -> String {
        #"{"id": "\#(id)", "title": "\#(title)"\#(extra)}"#
    }

    @Test func editsOfDifferentFieldsAreBothKept() throws {
        let result = try merge(
            #"{"name": "A", "summary": "s", "n": 1}"#, #"{"name": "B", "summary": "s", "n": 1}"#,
            #"{"name": "A", "summary": "t", "n": 1}"#)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged == (try json(#"{"name": "B", "summary": "t", "n": 1}"#)))
    }

    @Test func theSameChangeOnBothSidesIsNoConflict() throws {
        let result = try merge(#"{"name": "A"}"#, #"{"name": "B"}"#, #"{"name": "B"}"#)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged == (try json(#"{"name": "B"}"#)))
    }

    @Test func differentChangesOfOneFieldConflictWithBothValues() throws {
        let result = try merge(
            #"{"name": "A", "tags": ["x"]}"#, #"{"name": "B", "tags": ["x", "y"]}"#, #"{"name": "C", "tags": ["z"]}"#)
        let tags = (try json(#"["x"]"#), try json(#"["x", "y"]"#), try json(#"["z"]"#))
        #expect(
            result.conflicts == [
                JSONMerge.Conflict(path: "name", base: .string("A"), ours: .string("B"), theirs: .string("C")),
                JSONMerge.Conflict(path: "tags", base: tags.0, ours: tags.1, theirs: tags.2)
            ])
        #expect(result.merged == (try json(#"{"name": "B", "tags": ["x", "y"]}"#)), "ours stands where they conflict")
    }

    @Test func aRemovalOnOneSideAppliesUnlessTheOtherChangedTheValue() throws {
        let removed = try merge(#"{"a": 1, "b": 2}"#, #"{"a": 1}"#, #"{"a": 3, "b": 2}"#)
        #expect(removed.conflicts.isEmpty)
        #expect(removed.merged == (try json(#"{"a": 3}"#)))
        let changed = try merge(#"{"a": 1, "b": 2}"#, #"{"a": 1}"#, #"{"a": 1, "b": 5}"#)
        #expect(changed.conflicts == [JSONMerge.Conflict(path: "b", base: .integer(2), ours: nil, theirs: .integer(5))])
    }

    @Test func recordsAddedOnBothSidesAreAllKeptInAStableOrder() throws {
        let base = "[\(task("1", "a")), \(task("2", "b"))]"
        let ours = "[\(task("1", "a")), \(task("3", "ours")), \(task("2", "b"))]"
        let theirs = "[\(task("4", "theirs first")), \(task("1", "a")), \(task("2", "b")), \(task("5", "theirs last"))]"
        let result = try merge(#"{"tasks": \#(base)}"#, #"{"tasks": \#(ours)}"#, #"{"tasks": \#(theirs)}"#)
        #expect(result.conflicts.isEmpty)
        let expected =
            """
            [\(task("4", "theirs first")), \(task("1", "a")), \(task("3", "ours")), \(task("2", "b")), \
            \(task("5", "theirs last"))]
            """
        #expect(result.merged == (try json(#"{"tasks": \#(expected)}"#)))
    }

    @Test func recordsBothSidesAddedAfterTheSameRecordGoOursFirst() throws {
        let base = "[\(task("1", "a")), \(task("2", "b"))]"
        let ours = "[\(task("1", "a")), \(task("X", "ours")), \(task("2", "b"))]"
        let theirs = "[\(task("1", "a")), \(task("Y", "theirs")), \(task("2", "b"))]"
        let forward = try merge(base, ours, theirs)
        #expect(
            forward.merged
                == (try json("[\(task("1", "a")), \(task("X", "ours")), \(task("Y", "theirs")), \(task("2", "b"))]")))
        let backward = try merge(base, theirs, ours)
        #expect(
            backward.merged
                == (try json("[\(task("1", "a")), \(task("Y", "theirs")), \(task("X", "ours")), \(task("2", "b"))]")))
    }

    @Test func recordsMergeFieldByFieldAndConflictByID() throws {
        let base = "[\(task("1", "a", #", "done": false"#)), \(task("2", "b"))]"
        let ours = "[\(task("1", "a", #", "done": true"#)), \(task("2", "ours"))]"
        let theirs = "[\(task("1", "A", #", "done": false"#)), \(task("2", "theirs"))]"
        let result = try merge(base, ours, theirs)
        #expect(result.merged == (try json("[\(task("1", "A", #", "done": true"#)), \(task("2", "ours"))]")))
        #expect(
            result.conflicts == [
                JSONMerge.Conflict(
                    path: "[id=2].title", base: .string("b"), ours: .string("ours"), theirs: .string("theirs"))
            ])
    }

    @Test func deletingARecordTheOtherSideChangedConflicts() throws {
        let base = "[\(task("1", "a")), \(task("2", "b"))]"
        let deleteUnchanged = try merge(base, "[\(task("1", "a"))]", "[\(task("1", "x")), \(task("2", "b"))]")
        #expect(deleteUnchanged.conflicts.isEmpty)
        #expect(deleteUnchanged.merged == (try json("[\(task("1", "x"))]")))
        let deleteChanged = try merge(base, "[\(task("1", "a"))]", "[\(task("1", "a")), \(task("2", "edited"))]")
        let (original, edited) = (try json(task("2", "b")), try json(task("2", "edited")))
        #expect(
            deleteChanged.conflicts == [JSONMerge.Conflict(path: "[id=2]", base: original, ours: nil, theirs: edited)])
        #expect(deleteChanged.merged == (try json("[\(task("1", "a"))]")))
    }

    @Test func aReorderOnOneSideIsKeptAndOnBothSidesConflicts() throws {
        let base = "[\(task("1", "a")), \(task("2", "b")), \(task("3", "c"))]"
        let theirsReordered = try merge(
            base, "[\(task("1", "x")), \(task("2", "b")), \(task("3", "c"))]",
            "[\(task("3", "c")), \(task("1", "a")), \(task("2", "b"))]")
        #expect(theirsReordered.conflicts.isEmpty)
        #expect(theirsReordered.merged == (try json("[\(task("3", "c")), \(task("1", "x")), \(task("2", "b"))]")))
        let both = try merge(
            base, "[\(task("2", "b")), \(task("1", "a")), \(task("3", "c"))]",
            "[\(task("3", "c")), \(task("1", "a")), \(task("2", "b"))]")
        let orders = (try json(#"["1", "2", "3"]"#), try json(#"["2", "1", "3"]"#), try json(#"["3", "1", "2"]"#))
        #expect(both.conflicts == [JSONMerge.Conflict(path: ".", base: orders.0, ours: orders.1, theirs: orders.2)])
        #expect(both.merged == (try json("[\(task("2", "b")), \(task("1", "a")), \(task("3", "c"))]")))
    }

    @Test func blobsAreOneValueAndNewOnesAreUnited() throws {
        let a = #"{"$blob": "\#(String(repeating: "a", count: 64))", "size": 1, "mediaType": "image/png"}"#
        let b = #"{"$blob": "\#(String(repeating: "b", count: 64))", "size": 2, "mediaType": "image/jpeg"}"#
        let both = try merge(#"{}"#, #"{"thumbnail": \#(a)}"#, #"{"thumbnail": \#(b)}"#)
        #expect(both.conflicts.map(\.path) == ["thumbnail"], "two blobs never mix into one reference")
        let united = try merge(#"{}"#, #"{"cover": \#(a)}"#, #"{"thumbnail": \#(b)}"#)
        #expect(united.conflicts.isEmpty)
        #expect(united.merged == (try json(#"{"cover": \#(a), "thumbnail": \#(b)}"#)))
    }

    /// Swapping the sides finds the same conflicts (only the order of records both sides
    /// added next to one another, ours first, and which side stands in a conflict differ).
    @Test func swappingTheSidesFindsTheSameConflicts() throws {
        var random = SeededRandom(seed: 12)
        for _ in 0..<200 {
            let base = RandomJSON.value(using: &random)
            let ours = RandomJSON.edited(base, using: &random)
            let theirs = RandomJSON.edited(base, using: &random)
            let forward = JSONMerge.merge(base: base, ours: ours, theirs: theirs)
            let backward = JSONMerge.merge(base: base, ours: theirs, theirs: ours)
            #expect(forward.conflicts.map(\.path) == backward.conflicts.map(\.path))
            #expect(forward.conflicts.map(\.ours) == backward.conflicts.map(\.theirs))
            // One side's changes alone are that side.
            #expect(
                JSONMerge.merge(base: base, ours: base, theirs: theirs)
                    == JSONMerge.Result(merged: theirs, conflicts: []))
            #expect(
                JSONMerge.merge(base: base, ours: ours, theirs: ours) == JSONMerge.Result(merged: ours, conflicts: []))
        }
    }
}
