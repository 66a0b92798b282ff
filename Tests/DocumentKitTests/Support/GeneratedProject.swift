@testable import DocumentKit

/// Project documents as the benchmark corpus makes them (`bench/make_corpus.py`): tasks
/// with words from a small vocabulary, so that the text is as repetitive as real ones.
enum GeneratedProject {
    static let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"
    ]

    /// `count` words picked by `random`, separated by spaces.
    static func phrase(_ count: Int, using random: inout SeededRandom) -> String {
        (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// The task numbered `index`: its id is derived from the number, so ids are distinct.
    static func task(_ index: Int, using random: inout SeededRandom) -> JSONValue {
        .object([
            "id": .string(id(index)),
            "title": .string("Task \(index): \(phrase(4, using: &random))"),
            "status": .string(index % 3 == 0 ? "done" : "todo"),
            "priority": .string(["low", "medium", "high"][index % 3]),
            "notes": .string(phrase(18, using: &random))
        ])
    }

    /// A task id in UUID form that encodes `index`.
    static func id(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex + "-0000-4000-8000-"
            + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// A project with `taskCount` tasks; 25,000 make about 6 MB of canonical JSON.
    static func document(taskCount: Int, seed: UInt64) -> JSONValue {
        var random = SeededRandom(seed: seed)
        return .object([
            "name": .string("Generated"),
            "createdAt": .string("2026-01-01T00:00:00Z"),
            "isArchived": .bool(false),
            "tasks": .array((0..<taskCount).map { task($0, using: &random) })
        ])
    }
}
