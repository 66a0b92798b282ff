import Foundation

@testable import DocumentKit

/// Random JSON values, random edits of them, and random ways of writing them as text,
/// for checking that code reading JSON text agrees with code reading `JSONValue` trees.
enum RandomJSON {
    /// Names that collide often, including `id`, `$blob`, and two spellings of one
    /// name (precomposed and combining), which Swift's `String` treats as equal.
    static let keys = [
        "id", "title", "notes", "tags", "a", "b", "$blob", "size", "caf\u{E9}", "cafe\u{301}", "odd key", "k\"q", "日本"
    ]
    static let strings = [
        "", "x", "Task", "caf\u{E9}", "cafe\u{301}", "tab\there", "quote\"s", "back\\slash", "line\nbreak",
        "\u{1}", "emoji 😀", "/slash/", "\u{2028}", "a long string with many words in it, longer than fifteen bytes"
    ]

    static func value(depth: Int = 0, using random: inout SeededRandom) -> JSONValue {
        let kinds = depth >= 4 ? 5 : 9
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return [.null, .bool(true), .bool(false)].randomElement(using: &random)!
        case 1:
            return .integer(
                [0, 1, -1, 42, Int64.max, Int64.min, Int64.random(in: -1_000_000...1_000_000, using: &random)]
                    .randomElement(using: &random)!)
        case 2:
            return .number(
                [0.5, -2.25, 1e300, 1.5e-7, 100, Double(Int.random(in: -1_000...1_000, using: &random)) / 8]
                    .randomElement(using: &random)!)
        case 3, 4: return .string(strings.randomElement(using: &random)!)
        case 5:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth + 1, using: &random) })
        case 6:
            return .array(
                (0..<Int.random(in: 0...6, using: &random)).map { _ in element(depth: depth + 1, using: &random) })
        case 7: return blobReference(using: &random)
        default: return object(depth: depth, using: &random)
        }
    }

    static func object(depth: Int, using random: inout SeededRandom) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            members[keys.randomElement(using: &random)!] = value(depth: depth + 1, using: &random)
        }
        return .object(members)
    }

    /// An element of an array matched by id: an object with an `id` from a small set, so
    /// that edits reuse ids and arrays sometimes have duplicates (then matched by position).
    static func element(depth: Int, using random: inout SeededRandom) -> JSONValue {
        guard case .object(var members) = object(depth: depth, using: &random) else { fatalError() }
        members["id"] =
            Int.random(in: 0..<20, using: &random) == 0
            ? .integer(7) : .string("id-\(Int.random(in: 0..<12, using: &random))")
        return .object(members)
    }

    static func blobReference(using random: inout SeededRandom) -> JSONValue {
        .object([
            "$blob": .string(String(repeating: ["ab", "cd", "ef"].randomElement(using: &random)!, count: 32)),
            "size": .integer(Int64.random(in: 0...100, using: &random)), "mediaType": .string("image/png")
        ])
    }

    /// `value` with a few random changes somewhere inside.
    static func edited(_ value: JSONValue, using random: inout SeededRandom) -> JSONValue {
        var result = value
        for _ in 0..<Int.random(in: 1...3, using: &random) { result = edit(result, depth: 0, using: &random) }
        return result
    }

    private static func edit(_ value: JSONValue, depth: Int, using random: inout SeededRandom) -> JSONValue {
        let descend = Int.random(in: 0..<4, using: &random) != 0
        switch value {
        case .object(var members) where !members.isEmpty:
            let key = members.keys.sorted().randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0: members[key] = nil
            case 1: members[keys.randomElement(using: &random)!] = Self.value(depth: depth + 1, using: &random)
            default:
                members[key] =
                    descend
                    ? edit(members[key]!, depth: depth + 1, using: &random)
                    : Self.value(depth: depth + 1, using: &random)
            }
            return .object(members)
        case .array(var elements) where !elements.isEmpty:
            let index = Int.random(in: 0..<elements.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: elements.remove(at: index)
            case 1: elements.insert(element(depth: depth + 1, using: &random), at: index)
            case 2: elements.shuffle(using: &random)
            case 3: elements.swapAt(index, elements.count - 1)
            default:
                elements[index] =
                    descend
                    ? edit(elements[index], depth: depth + 1, using: &random)
                    : Self.value(depth: depth + 1, using: &random)
            }
            return .array(elements)
        default:
            return Self.value(depth: depth, using: &random)
        }
    }

    /// `value` as JSON text in one of several layouts: canonical pretty or compact, or
    /// scrambled (members in random order, random white space, random escapes and number
    /// spellings); every layout parses back to `value`.
    static func text(_ value: JSONValue, using random: inout SeededRandom) -> Data {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return value.encoded()
        case 1: return value.encoded(pretty: false)
        default:
            var text = ""
            write(value, to: &text, using: &random)
            return Data(text.utf8)
        }
    }

    private static func write(_ value: JSONValue, to text: inout String, using random: inout SeededRandom) {
        func space() { text += ["", "", " ", "\n  ", "\t", "\r\n"].randomElement(using: &random)! }
        space()
        switch value {
        case .null, .bool, .integer: text += value.jsonText(pretty: false)
        case .number(let number):
            // Spellings of the same double; an integer spelling would make it an integer.
            text += ["\(number)", "\(number)e0", "\(number)".uppercased(), "\(number * 10)E-1"].filter {
                Double($0) == number
            }.randomElement(using: &random)!
        case .string(let string): writeString(string, to: &text, using: &random)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                write(element, to: &text, using: &random)
            }
            space()
            text += "]"
        case .object(let members):
            text += "{"
            for (offset, key) in members.keys.shuffled(using: &random).enumerated() {
                if offset > 0 { text += "," }
                space()
                writeString(key, to: &text, using: &random)
                space()
                text += ":"
                write(members[key]!, to: &text, using: &random)
            }
            space()
            text += "}"
        }
        space()
    }

    private static func writeString(_ string: String, to text: inout String, using random: inout SeededRandom) {
        text += "\""
        for scalar in string.unicodeScalars {
            let escaped = scalar.value < 0x20 || Int.random(in: 0..<4, using: &random) == 0
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/" where escaped: text += "\\/"
            case _ where escaped: for unit in String(scalar).utf16 { text += "\\u" + String(format: "%04X", unit) }
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
