import DocumentKitCore
import Foundation

/// The small pieces of JSON text both of DocumentKit's JSON writers share: string
/// escaping, numbers, and pretty-printing white space.
package enum JSONText {
    /// Appends `value` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else (including `/` and non-ASCII) as UTF-8.
    package static func appendString(_ value: String, to output: inout some JSONByteSink) {
        output.append(UInt8(ascii: "\""))
        // Most strings (titles, ids, names) need no escape: copied whole, not byte by byte.
        let plain: Bool? = value.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]
                ])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A finite double as JSON: integral values without a fraction, others as Swift's
    /// shortest round-tripping form. `nil` for infinities and NaN, which JSON cannot hold.
    package static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A newline and two spaces per level, when pretty-printing.
    package static func appendNewline(_ output: inout some JSONByteSink, pretty: Bool, indent: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Appends an object's members, sorted by the UTF-8 bytes of their keys; `appendValue`
    /// writes each value (for `indent + 1`) straight into `output`.
    package static func appendObject<Value, Sink: JSONByteSink>(
        _ members: [(key: String, value: Value)], to output: inout Sink, pretty: Bool, indent: Int,
        appendValue: (Value, inout Sink) throws -> Void
    ) rethrows {
        guard !members.isEmpty else { return output.append(contentsOf: "{}".utf8) }
        output.append(UInt8(ascii: "{"))
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (offset, member) in sorted.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            appendNewline(&output, pretty: pretty, indent: indent + 1)
            appendString(member.key, to: &output)
            output.append(contentsOf: (pretty ? " : " : ":").utf8)
            try appendValue(member.value, &output)
        }
        appendNewline(&output, pretty: pretty, indent: indent)
        output.append(UInt8(ascii: "}"))
    }

    /// Appends an array's elements; `appendElement` writes each (for `indent + 1`).
    package static func appendArray<Element, Sink: JSONByteSink>(
        _ elements: [Element], to output: inout Sink, pretty: Bool, indent: Int,
        appendElement: (Element, inout Sink) throws -> Void
    ) rethrows {
        guard !elements.isEmpty else { return output.append(contentsOf: "[]".utf8) }
        output.append(UInt8(ascii: "["))
        for (offset, element) in elements.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            appendNewline(&output, pretty: pretty, indent: indent + 1)
            try appendElement(element, &output)
        }
        appendNewline(&output, pretty: pretty, indent: indent)
        output.append(UInt8(ascii: "]"))
    }

    /// Pretty text written for the top level, as it reads `levels` deeper: two more spaces
    /// after every newline. Canonical text has newlines only between members and elements
    /// (a newline inside a string is `\n`), so this is the text the encoder writes there.
    package static func reindented(_ text: Data, levels: Int) -> [UInt8] {
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: levels * 2)
        var output: [UInt8] = []
        output.reserveCapacity(text.count + text.count / 8)
        // Line by line: a byte at a time through `Data`'s iterator cost more than the copy.
        text.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
                guard let found = rest.firstIndex(of: 0x0A) else {
                    output.append(contentsOf: rest)
                    break
                }
                let newline = start + found
                output.append(contentsOf: bytes[start...newline])
                output.append(contentsOf: indent)
                start = newline + 1
            }
        }
        return output
    }
}
