import DocumentKitCore
import Foundation

/// A `JSONWalker` output that builds nothing: it keeps the member names of the objects
/// being read, to find duplicates, and, when asked, an outline of where the top-level
/// members and the elements of some arrays are.
package struct JSONChecker: JSONWalkOutput {
    /// The names of the members of the objects being read, innermost last: the bytes
    /// between each name's quotes.
    private var memberNames: [Range<Int>] = []
    /// What `checkDocument(outlining:)` records, and the elements of the outlined array
    /// being read, and the `id` of the element being read.
    fileprivate var outline: JSONOutline?
    fileprivate var outlinedElements: [JSONOutline.Element]?
    private var outlinedIdentity: Range<Int>?

    package init() {}

    /// An object being checked: where its names start in `memberNames`, and a set of
    /// them once they are too many, or not plain enough, to compare as bytes.
    package struct Object {
        fileprivate let firstName: Int
        fileprivate var manyNames: Set<String>?
    }

    package static func string(_ walker: inout JSONWalker<Self>, _ string: JSONStringToken) throws {}

    package static func number(_ walker: inout JSONWalker<Self>, from start: Int, isInteger: Bool) throws {
        // Up to 18 digits always fit in an Int64: only longer numbers and fractions can be
        // out of range.
        if !isInteger || walker.index - start > 18 { _ = try walker.numberValue(from: start, isInteger: isInteger) }
    }

    package static func literal(_ literal: JSONLiteral) {}

    package static func beginObject(_ walker: inout JSONWalker<Self>) -> Object {
        Object(firstName: walker.output.memberNames.count)
    }

    package static func memberValue(_ walker: inout JSONWalker<Self>, named name: JSONStringToken) throws {
        if walker.depth == 1, walker.output.outline != nil {
            try walkOutlinedMember(&walker, walker.text(of: name))
        } else if walker.depth == 3, walker.output.outlinedElements != nil,
            name.isPlain ? walker.sameBytes(name.content, "id") : walker.text(of: name) == "id"
        {
            // The `id` of an element of an outlined array (at depth 2).
            walker.skipWhitespace()
            let start = walker.index
            try walker.walkValue()
            walker.output.outlinedIdentity = start..<walker.index
        } else {
            try walker.walkValue()
        }
    }

    /// Names of plain ASCII are told apart by their bytes, as equal strings of ASCII are
    /// equal bytes; from the first other name (an escape, a letter `String` may find equal
    /// to another spelling), or when the object is large, they are compared as strings in
    /// a set, so that finding duplicates stays linear and agrees with building the object.
    package static func addMember(
        _ walker: inout JSONWalker<Self>, _ name: JSONStringToken, _ value: Void, to object: inout Object
    ) throws {
        let isDuplicate: Bool
        if object.manyNames == nil, name.isPlain, walker.output.memberNames.count - object.firstName < 16 {
            isDuplicate = walker.output.memberNames[object.firstName...].contains { walker.sameBytes($0, name.content) }
        } else {
            if object.manyNames == nil {
                object.manyNames = Set(
                    walker.output.memberNames[object.firstName...].map { walker.text(ofChecked: $0) })
            }
            isDuplicate = !object.manyNames!.insert(walker.text(of: name)).inserted
        }
        walker.output.memberNames.append(name.content)
        if isDuplicate { throw walker.duplicateMember(name) }
    }

    package static func endObject(_ walker: inout JSONWalker<Self>, _ object: Object) {
        walker.output.memberNames.removeSubrange(object.firstName...)
    }

    package static func beginArray(_ walker: inout JSONWalker<Self>) {}

    package static func elementValue(_ walker: inout JSONWalker<Self>) throws {
        // Only an outlined member's array is at depth 2 with elements being recorded.
        guard walker.depth == 2, walker.output.outlinedElements != nil else { return try walker.walkValue() }
        walker.skipWhitespace()
        let start = walker.index
        walker.output.outlinedIdentity = nil
        try walker.walkValue()
        walker.output.outlinedElements!.append(
            JSONOutline.Element(value: start..<walker.index, identity: walker.output.outlinedIdentity))
    }

    package static func addElement(_ value: Void, to array: inout Void) {}

    package static func endArray(_ walker: inout JSONWalker<Self>, _ array: Void) {}

    /// Reads the value of the top-level member `key`, recording it in the outline, and
    /// its elements when it is an outlined array.
    private static func walkOutlinedMember(_ walker: inout JSONWalker<Self>, _ key: String) throws {
        walker.skipWhitespace()
        let start = walker.index
        let isOutlinedArray = walker.current == UInt8(ascii: "[") && walker.output.outline!.outlined.contains(key)
        if isOutlinedArray { walker.output.outlinedElements = [] }
        try walker.walkValue()
        walker.output.outline!.members.append((key, start..<walker.index))
        if isOutlinedArray {
            walker.output.outline!.elements[key] = walker.output.outlinedElements
            walker.output.outlinedElements = nil
        }
    }
}

extension JSONWalker where Output == JSONChecker {
    /// Checks a whole JSON text as `JSONParser.parseDocument()` does, building nothing, and
    /// returns the byte range of its top-level value.
    package mutating func checkDocument() throws -> Range<Int> { try walkDocument().range }

    /// Checks a whole JSON text as `checkDocument()` does and, when it is an object,
    /// records where its members are and where the elements of the arrays named `keys`
    /// are: one pass gives both the check and the outline.
    package mutating func checkDocument(outlining keys: Set<String>) throws -> (root: Range<Int>, outline: JSONOutline)
    {
        output.outline = JSONOutline(outlined: keys)
        defer { output.outline = nil }
        let root = try checkDocument()
        return (root, output.outline!)
    }
}

extension JSONWalker {
    /// Whether two ranges of the text hold the same bytes.
    fileprivate func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, a.count) == 0
    }

    /// Whether the text's bytes in `range` are `ascii`'s.
    fileprivate func sameBytes(_ range: Range<Int>, _ ascii: StaticString) -> Bool {
        range.count == ascii.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + range.lowerBound, ascii.utf8Start, range.count) == 0
    }

    /// The text of a string read already, given the bytes between its quotes.
    fileprivate func text(ofChecked content: Range<Int>) -> String {
        let hasEscapes =
            memchr(bytes.baseAddress! + content.lowerBound, Int32(UInt8(ascii: "\\")), content.count) != nil
        return text(
            of: JSONStringToken(quote: content.lowerBound - 1, content: content, isASCII: false, hasEscapes: hasEscapes)
        )
    }
}

extension JSONValue {
    /// Checks that `data` is one JSON text by the parser's rules (grammar, nesting up to
    /// `depthLimit`, no duplicate member names, valid UTF-8) without building any value:
    /// for text another decoder reads next, which would accept duplicates or stack-overflow.
    package static func check(_ data: Data, depthLimit: Int = JSONDepth.defaultLimit) throws {
        try data.withUnsafeBytes { bytes in
            var checker = JSONWalker<JSONChecker>(bytes: bytes, depthLimit: depthLimit)
            _ = try checker.checkDocument()
        }
    }
}
