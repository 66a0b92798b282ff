import DocumentKitCore
import Foundation

/// Finds the digests of blob references (`"$blob": "…"` members) in JSON text by
/// searching its bytes for the member name, reading only what follows each match with the
/// document parser, without parsing the document.
package enum BlobReferenceScan {
    /// The digests, in text order; `nil` when a match is not plainly a member name
    /// followed by a string, and the caller should parse instead.
    package static func digests(in data: Data) -> [String]? {
        let needle = Array(#""$blob""#.utf8)
        return data.withUnsafeBytes { (text: UnsafeRawBufferPointer) -> [String]? in
            var parser = JSONParser(bytes: text, depthLimit: 1)
            var found: [String] = []
            var from = 0
            for start in ByteSearch.offsets(of: needle, in: text) where start >= from {
                // Inside a string, a quote is escaped: a backslash before it means no key.
                if start > 0, text[start - 1] == UInt8(ascii: "\\") { return nil }
                parser.index = start + needle.count
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: ":") else { return nil }
                parser.index += 1
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: "\""), let digest = try? parser.parseString(),
                    digest.utf8.count == 64
                else { return nil }
                found.append(digest)
                from = parser.index
            }
            return found
        }
    }
}
