import DocumentKitCore
import Foundation

/// The rules every entry name must follow, in bundles and in the archives DocumentKit
/// imports or exports.
///
/// A name is a relative path of `/`-separated components in UTF-8. The rules refuse
/// everything that could escape an extraction directory (`/abs`, `../x`), that different
/// tools would read differently (`a\b`, `a//b`, `./a`), or that C code would cut short (NUL).
///
/// ```swift
/// try ArchiveEntryName.validate("objects/ab/cdef")      // fine
/// try ArchiveEntryName.validate("../etc/passwd")        // throws .unsafeEntry
/// ```
package enum ArchiveEntryName {
    /// The longest accepted name, in UTF-8 bytes (PATH_MAX on Linux).
    package static let maxByteCount = 4096

    /// Throws `.unsafeEntry` unless `name` is a safe relative path.
    ///
    /// Refused: the empty name, names longer than ``maxByteCount`` bytes, absolute paths,
    /// NUL and other control characters, backslashes, and empty, `.` or `..` components
    /// (so also a trailing `/`).
    package static func validate(_ name: String) throws(ArchiveError) {
        if let problem = problem(in: name) {
            throw ArchiveError(.unsafeEntry, problem, entry: name)
        }
    }

    /// Decodes a name read from an archive and validates it.
    ///
    /// Invalid UTF-8 is refused as `.unsafeEntry` (the error's `entry` shows it with
    /// replacement characters), never repaired: two different byte strings must never
    /// become the same name.
    package static func decode(_ bytes: some Collection<UInt8>) throws(ArchiveError) -> String {
        let name = try decodeUTF8(bytes)
        try validate(name)
        return name
    }

    /// Decodes UTF-8 without validating the result as a path (for symbolic link targets).
    package static func decodeUTF8(_ bytes: some Collection<UInt8>) throws(ArchiveError) -> String {
        let name = String(decoding: bytes, as: UTF8.self)
        // `String(decoding:)` repairs invalid input with U+FFFD; a round trip that changes
        // the bytes means the input was not UTF-8.
        guard name.utf8.elementsEqual(bytes) else {
            throw ArchiveError(.unsafeEntry, "entry name is not valid UTF-8", entry: name)
        }
        return name
    }

    /// A key that is equal for two names exactly when they would name the same file on a
    /// case-insensitive, normalization-insensitive file system (APFS, HFS+, NTFS defaults).
    ///
    /// Callers keep a `Set` of keys to refuse "A.txt" beside "a.txt", or "é" written
    /// precomposed (NFC) beside "é" written as "e" + combining accent (NFD).
    package static func collisionKey(_ name: String) -> String {
        // ASCII needs no normalization, and bundles are nearly all ASCII (object names are
        // hex): folding case byte by byte keeps opening a bundle of thousands of entries fast.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            guard name.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
            return String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        // Swift's String equality already treats canonically equivalent strings as equal;
        // normalizing to NFC as well makes the key's bytes (not just its equality) canonical.
        return name.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The reason `name` is refused, or `nil` when it is safe.
    private static func problem(in name: String) -> String? {
        let bytes = name.utf8
        if bytes.isEmpty { return "entry name is empty" }
        if bytes.count > maxByteCount {
            return "entry name is \(bytes.count) bytes long; the limit is \(maxByteCount)"
        }
        if bytes.first == UInt8(ascii: "/") { return "entry name is an absolute path" }
        if bytes.contains(0) { return "entry name contains a NUL byte" }
        if containsControlCharacter(bytes) { return "entry name contains a control character" }
        if bytes.contains(UInt8(ascii: "\\")) { return "entry name contains a backslash" }
        // One pass over the bytes, tracking the current component's length and whether it
        // is all dots: no component arrays are built for the thousands of names in a bundle.
        var length = 0
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if let problem = componentProblem(length: length, dots: dots) { return problem }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return componentProblem(length: length, dots: dots)
    }

    /// Whether UTF-8 `bytes` hold a control character: C0 and DEL are single bytes, C1
    /// (U+0080–U+009F) is 0xC2 followed by 0x80–0x9F.
    private static func containsControlCharacter(_ bytes: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return true }
            previous = byte
        }
        return false
    }

    private static func componentProblem(length: Int, dots: Int) -> String? {
        if length == 0 { return "entry name contains an empty component" }
        if length == 1, dots == 1 { return "entry name contains a '.' component" }
        if length == 2, dots == 2 { return "entry name contains a '..' component" }
        return nil
    }
}
