import DocumentKit
import Foundation
import FuzzSupport
import FuzzerDriver

// libFuzzer target: text as a JSON path, as `docctl get`, `set` and `unset` take it. A
// path that parses must print as text that parses back to the same path, and get, set
// and remove on a sample document must return or throw, never crash.

/// A small document with each kind of value the path steps into: members, nested
/// arrays, elements with ids (string and number), and keys that need quoting.
private let sample: JSONValue = {
    let text = #"""
        {"name": "Garden", "count": 3, "done": false, "nothing": null,
         "tasks": [{"id": "A1", "title": "Buy seeds", "tags": ["x", "y"]},
                   {"id": 7, "title": "Dig", "tags": []},
                   {"title": "No id"}],
         "odd key": {"x.y": 1, "[0]": 2, "": 3, "$": 4},
         "matrix": [[1, 2], [3, [4, 5]]]}
        """#
    return try! JSONValue.parse(Data(text.utf8))
}()

/// One input; libFuzzer calls it for every input it tries.
func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    // The CLI gets paths as arguments, which are valid UTF-8 or repaired into it.
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let path = refusing("JSONPath(parsing:)", { try JSONPath(parsing: text) }) else { return 0 }

    let printed = path.description
    guard let reparsed = try? JSONPath(parsing: printed) else {
        fatalError(
            "\(String(reflecting: text)) parses as \(path.components), whose description \(String(reflecting: printed)) does not parse"
        )
    }
    guard reparsed == path else {
        fatalError(
            "\(String(reflecting: text)) parses as \(path.components), but its description \(String(reflecting: printed)) parses as \(reparsed.components)"
        )
    }

    let found = refusing("get \(printed)") { try sample.value(at: path) }
    var edited = sample
    let marker = JSONValue.string("fuzz")
    let selectsByPosition = path.components.allSatisfy {
        if case .key = $0 { true } else if case .index = $0 { true } else { false }
    }
    if refusing("set \(printed)", { try edited.setValue(marker, at: path) }) != nil, selectsByPosition {
        // What was set is what a get now finds (unless the path appends, or matches
        // elements by a field that the set may have just changed).
        guard let after = try? edited.value(at: path), after == marker else {
            fatalError("set \(printed) then get did not find the value set")
        }
    }
    var removed = sample
    if refusing("remove \(printed)", { try removed.removeValue(at: path) }) != nil, found == nil {
        fatalError("remove \(printed) succeeded where get found nothing")
    }
    return 0
}

var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, testOneInput))
