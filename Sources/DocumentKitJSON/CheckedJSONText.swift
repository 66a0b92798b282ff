import DocumentKitCore
import Foundation

/// A JSON text checked once, with the range of its top-level value: what a diff of it
/// against several others takes, so that it is not checked again for each (a deep
/// validation compares every version's document with its parent's and its child's).
package struct CheckedJSONText {
    package let text: Data
    package let root: Range<Int>

    /// Checks `text` as `JSONValue.parse` does; throws its error.
    package init(_ text: Data, depthLimit: Int = 256) throws {
        self.text = text
        root = try text.withUnsafeBytes { bytes in
            var checker = JSONWalker<JSONChecker>(bytes: bytes, depthLimit: depthLimit)
            return try checker.checkDocument()
        }
    }
}
