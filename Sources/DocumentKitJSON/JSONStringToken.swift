import DocumentKitCore
import Foundation

/// A string the walker has read and checked: where its quotes are and what it holds.
package struct JSONStringToken {
    /// The position of its opening quote.
    package let quote: Int
    /// The bytes between its quotes.
    package let content: Range<Int>
    /// Whether those bytes are all ASCII.
    package let isASCII: Bool
    /// Whether it holds an escape, so that its bytes are not its text.
    package let hasEscapes: Bool

    /// ASCII with no escapes: its bytes are its value, and equal bytes are equal names.
    package var isPlain: Bool { isASCII && !hasEscapes }
}
