import DocumentKit
import Foundation
import FuzzSupport
import FuzzerDriver

// libFuzzer target: bytes as JSON text, as every document and manifest is read. Text
// that parses must serialize, compactly and pretty printed, to text that parses back to
// the same value; no input may crash or hang the parser.

/// `value` as it reads back after serializing: an integral double is written without a
/// fraction (`2.0` as `2`), so it reads back as an integer of the same value.
func normalized(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let number) where number == number.rounded() && abs(number) < 1e15: .integer(Int64(number))
    case .array(let elements): .array(elements.map(normalized))
    case .object(let members): .object(members.mapValues(normalized))
    default: value
    }
}

/// One input; libFuzzer calls it for every input it tries.
func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: start, count: count))
    guard let value = refusing("parse", { try JSONValue.parse(bytes) }) else { return 0 }
    let expected = normalized(value)
    for pretty in [false, true] {
        let text = value.jsonText(pretty: pretty)
        guard let again = try? JSONValue.parse(Data(text.utf8)) else {
            fatalError("\(value) serializes to \(String(reflecting: text)), which does not parse")
        }
        guard again == expected else {
            fatalError("\(value) serializes to \(String(reflecting: text)), which parses as \(again)")
        }
    }
    return 0
}

var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, testOneInput))
