import DocumentKitCore
import Foundation

/// What a `JSONWalker` makes of the values it reads. The walker owns the grammar (every
/// rule, limit and message); its output decides only what a value becomes:
/// `JSONValueBuilder` builds `JSONValue`s, `JSONChecker` keeps nothing but what it needs
/// to find duplicate member names (and, when asked, an outline of the text).
///
/// The requirements are static and take the walker `inout`, so that an output can keep
/// its state in `walker.output` and read the walker's bytes in the same call; both
/// outputs live in this module, where the walker is specialized for each.
package protocol JSONWalkOutput {
    associatedtype Value
    /// An object being read.
    associatedtype Object
    /// An array being read.
    associatedtype Array

    init()

    static func string(_ walker: inout JSONWalker<Self>, _ string: JSONStringToken) throws -> Value
    /// The number whose text runs from `start` to `walker.index`, grammar checked.
    static func number(_ walker: inout JSONWalker<Self>, from start: Int, isInteger: Bool) throws -> Value
    static func literal(_ literal: JSONLiteral) -> Value

    static func beginObject(_ walker: inout JSONWalker<Self>) -> Object
    /// Reads the value of member `name` (the walker stands after its colon).
    static func memberValue(_ walker: inout JSONWalker<Self>, named name: JSONStringToken) throws -> Value
    /// Adds a member; throws `walker.duplicateMember(name)` when the object has the name.
    static func addMember(
        _ walker: inout JSONWalker<Self>, _ name: JSONStringToken, _ value: Value, to object: inout Object) throws
    static func endObject(_ walker: inout JSONWalker<Self>, _ object: Object) -> Value

    static func beginArray(_ walker: inout JSONWalker<Self>) -> Array
    /// Reads the next element (the walker stands before it).
    static func elementValue(_ walker: inout JSONWalker<Self>) throws -> Value
    static func addElement(_ value: Value, to array: inout Array)
    static func endArray(_ walker: inout JSONWalker<Self>, _ array: Array) -> Value
}
