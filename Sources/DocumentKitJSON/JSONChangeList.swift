import DocumentKitCore

/// The changes a diff finds, the first `limit` of them kept and the rest only counted: a
/// version's summary lists 50, and a change to a list of 5,000 ids need not build the
/// paths and values of the 4,950 it leaves out.
package struct JSONChangeList {
    package let limit: Int
    /// The changes kept, in document order.
    package private(set) var listed: [JSONChange] = []
    /// How many changes there were.
    package private(set) var count = 0

    package init(limit: Int) { self.limit = limit }

    /// Counts a change, and keeps it (making it only then) while fewer than `limit` are kept.
    package mutating func append<Failure: Error>(
        throwing: Failure.Type, _ change: @autoclosure () throws(Failure) -> JSONChange
    ) throws(Failure) {
        count += 1
        if listed.count < limit { listed.append(try change()) }
    }
}
