import DocumentKitCore
import Foundation

/// Where a JSON object's top-level members are in its text, and where the elements of
/// the arrays among them that were asked for are: what a spliced edit needs to find a
/// record, recorded by the pass that checks the text (`checkDocument(outlining:)`)
/// instead of by passes of its own over a 40 MB document.
package struct JSONOutline {
    /// The top-level members in text order: each name and its value's bytes.
    package var members: [(key: String, value: Range<Int>)] = []
    /// The elements of each outlined member whose value is an array.
    package var elements: [String: [Element]] = [:]
    /// The names whose arrays are outlined.
    package let outlined: Set<String>

    /// An element of an outlined array.
    package struct Element {
        /// Its bytes.
        package var value: Range<Int>
        /// The bytes of its `id` member's value, when it is an object that has one: what
        /// telling records apart by id needs, without a pass over each record.
        package var identity: Range<Int>?
    }
}
