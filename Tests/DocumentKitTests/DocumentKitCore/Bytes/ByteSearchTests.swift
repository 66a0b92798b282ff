import DocumentKitCore
import Foundation
import Testing

@testable import DocumentKit

/// Where an id appears in a document's text: what a removal reads to find the records
/// that name the removed one.
@Suite struct ByteSearchTests {
    private func offsets(_ needle: String, in text: String) -> [Int] {
        Array(text.utf8).withUnsafeBytes { ByteSearch.offsets(of: Array(needle.utf8), in: $0) }
    }

    @Test func findsEveryOccurrenceOverlappingOnesIncluded() {
        #expect(offsets("aa", in: "aaaa") == [0, 1, 2])
        #expect(offsets("\"A1\"", in: #"["A1", "A1", "B1", "A1"]"#) == [1, 7, 19])
    }

    @Test func findsItAtEitherEnd() {
        #expect(offsets("ab", in: "abxxab") == [0, 4])
        #expect(offsets("abc", in: "abc") == [0])
    }

    @Test func findsNothingWhereItIsNot() {
        #expect(offsets("abd", in: "abcabcab").isEmpty)
        #expect(offsets("longer than the text", in: "short").isEmpty)
        #expect(offsets("", in: "text").isEmpty)
        #expect(offsets("a", in: "").isEmpty)
    }
}
