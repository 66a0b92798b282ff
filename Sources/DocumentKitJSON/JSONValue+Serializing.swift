import DocumentKitCore
import Foundation

extension JSONValue {
    /// The value as JSON text with keys sorted by their UTF-8 bytes; pretty-printed with
    /// two-space indents and `"key" : value`, or compact. The same layout as
    /// `CanonicalJSONEncoder`, so a document reads the same however it was written.
    public func encoded(pretty: Bool = true) -> Data {
        let output = JSONOutputBuffer()
        var sink = output
        append(to: &sink, pretty: pretty, indent: 0)
        let data = output.data()
        WorkMeter.count(.encodedBytes, data.count)
        return data
    }

    /// The value as JSON text, as a string.
    public func jsonText(pretty: Bool = true) -> String {
        var output: [UInt8] = []
        append(to: &output, pretty: pretty, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    private func append(to output: inout some JSONByteSink, pretty: Bool, indent: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .number(let value): output.append(contentsOf: (JSONText.number(value) ?? "null").utf8)
        case .string(let value): JSONText.appendString(value, to: &output)
        case .array(let elements):
            JSONText.appendArray(elements, to: &output, pretty: pretty, indent: indent) { element, output in
                element.append(to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            JSONText.appendObject(members.map { ($0.key, $0.value) }, to: &output, pretty: pretty, indent: indent) {
                value, output in
                value.append(to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }
}
