import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A scan of JSON text for where members are, that understands strings and nesting and
/// checks nothing else: one pass of a byte loop, a fraction of what checking the text
/// would cost, so that a long history's manifest costs `cat` little (see
/// `BundleManifest.headRecords`, which checks what it decodes).
///
/// It never recurses and never reads past the text, so any bytes cost their length and no
/// more. Whatever it cannot read plainly (text cut short, a name with escapes, a top-level
/// name twice, text after the object) makes it give up, returning `nil`.
package struct ManifestScan {
    package let bytes: UnsafeRawBufferPointer
    package var index: Int
    /// Set when the text is not as expected; every loop then ends.
    private var failed = false

    package init(bytes: UnsafeRawBufferPointer, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    /// The top-level members, and each version's record and id.
    package mutating func layout() -> ManifestLayout? {
        var layout = ManifestLayout()
        guard enterObject() else { return nil }
        while let name = nextMember() {
            guard layout.members[name] == nil else { return nil }
            skipWhitespace()
            let start = index
            if name == "versions" {
                layout.versions = versionRecords()
            } else if name == "pruned" {
                layout.prunedCount = elementCount()
            } else {
                skipValue()
            }
            layout.members[name] = start..<index
        }
        skipWhitespace()
        return failed || index != bytes.count ? nil : layout
    }

    /// The range of member `name`'s value in the object at the current position.
    package mutating func rangeOfMember(named name: String) -> Range<Int>? {
        guard enterObject() else { return nil }
        while let member = nextMember() {
            skipWhitespace()
            let start = index
            skipValue()
            if member == name, !failed { return start..<index }
        }
        return nil
    }

    private mutating func versionRecords() -> [(id: Range<Int>?, range: Range<Int>)] {
        var records: [(id: Range<Int>?, range: Range<Int>)] = []
        guard current == UInt8(ascii: "[") else {
            failed = true
            return records
        }
        index += 1
        while !failed {
            skipWhitespace()
            if current == UInt8(ascii: ","), !records.isEmpty {
                index += 1
                skipWhitespace()
            }
            if current == UInt8(ascii: "]") {
                index += 1
                break
            }
            let start = index
            var id: Range<Int>?
            guard enterObject() else {
                failed = true
                break
            }
            while let member = nextMember() {
                skipWhitespace()
                if member == "id", current == UInt8(ascii: "\"") { id = plainString() } else { skipValue() }
            }
            records.append((id, start..<index))
        }
        return records
    }

    /// Moves past the array at the current position, counting its elements.
    private mutating func elementCount() -> Int {
        guard current == UInt8(ascii: "[") else {
            failed = true
            return 0
        }
        index += 1
        var count = 0
        while !failed {
            skipWhitespace()
            if current == UInt8(ascii: ","), count > 0 {
                index += 1
                skipWhitespace()
            }
            if current == UInt8(ascii: "]") {
                index += 1
                break
            }
            skipValue()
            count += 1
        }
        return count
    }

    /// Moves into the object at the current position, if there is one.
    private mutating func enterObject() -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return false }
        index += 1
        return true
    }

    /// The name of the object's next member, standing before its value; `nil` past the
    /// object's end, or when the scan has failed.
    private mutating func nextMember() -> String? {
        skipWhitespace()
        if current == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
        if current == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        guard !failed, current == UInt8(ascii: "\""), let name = plainString() else {
            failed = true
            return nil
        }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else {
            failed = true
            return nil
        }
        index += 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[name]), as: UTF8.self)
    }

    /// The bytes of the string at the current position, without its quotes, moving past
    /// it; `nil` (and the scan failed) if it holds an escape, since its bytes are then not
    /// its text, or if it is not closed.
    private mutating func plainString() -> Range<Int>? {
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] != UInt8(ascii: "\\") else { break }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            failed = true
            return nil
        }
        index += 1
        return start..<(index - 1)
    }

    /// Moves past one value (see `JSONTextScanner.endOfValue`); the scan fails when the
    /// text ends inside it.
    private mutating func skipValue() {
        skipWhitespace()
        guard let end = JSONTextScanner.endOfValue(in: bytes, at: index) else {
            failed = true
            index = bytes.count
            return
        }
        index = end
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
