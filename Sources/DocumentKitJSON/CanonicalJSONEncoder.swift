import DocumentKitCore
import Foundation

/// Encodes `Encodable` values to DocumentKit's canonical JSON: keys sorted by their UTF-8
/// bytes, times as UTC `2026-11-22T09:30:00Z`, two-space pretty-printing or compact.
///
/// Unlike `JSONEncoder`, it builds no tree of the whole value: each member is encoded when
/// its turn comes in the output (keys sorted per object), straight into the text, so a
/// multi-megabyte document needs little more memory than the text it produces.
///
/// ```swift
/// let json = try CanonicalJSONEncoder().encode(project)
/// ```
public struct CanonicalJSONEncoder {
    /// Whether to indent (two spaces, `"key" : value`) or write compactly.
    public var pretty: Bool
    /// Values for the encoded types' `encode(to:)` to consult.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(pretty: Bool = true, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.pretty = pretty
        self.userInfo = userInfo
    }

    /// The JSON text of `value`, followed by a newline when `terminated` (as text files are).
    public func encode<T: Encodable>(_ value: T, terminated: Bool = false) throws -> Data {
        let options = EncodingOptions(pretty: pretty, userInfo: userInfo)
        let node = try EncodingNode.encode(value, depth: 0, codingPath: [], options: options)
        let output = JSONOutputBuffer()
        var sink = output
        try node.append(to: &sink, pretty: pretty)
        if terminated { output.append(0x0A) }
        let data = output.data()
        WorkMeter.count(.encodedBytes, data.count)
        return data
    }
}

package struct EncodingOptions {
    package let pretty: Bool
    package let userInfo: [CodingUserInfoKey: any Sendable]
}

/// One value being encoded: its text, the members a container is filling in, or a value
/// whose encoding waits until the output reaches it.
package final class EncodingNode {
    package enum Content {
        case empty
        case text([UInt8])
        case object([(key: String, node: EncodingNode)])
        case array([EncodingNode])
        case pending(() throws -> EncodingNode)
    }

    package var content: Content = .empty
    package let depth: Int
    /// Where each key is among an object's members, once it has more than a few: filling
    /// an object of n members (a manifest's table of objects, a dictionary) then costs n
    /// lookups, not the n²/2 key comparisons of a search per key.
    private var memberPositions: [String: Int] = [:]

    package init(depth: Int) { self.depth = depth }

    /// Sets the member `key` of this object node to `child`, replacing one with that key.
    package func setMember(_ child: EncodingNode, forKey key: String) {
        guard case .object(var members) = content else { return }
        content = .empty  // let `members` be the only reference while it changes
        if let index = position(ofMember: key, in: members) {
            members[index].node = child
        } else {
            members.append((key, child))
            if !memberPositions.isEmpty { memberPositions[key] = members.count - 1 }
        }
        content = .object(members)
    }

    private func position(ofMember key: String, in members: [(key: String, node: EncodingNode)]) -> Int? {
        guard members.count > 8 else {
            WorkMeter.count(.encoderSteps, members.count)
            return members.firstIndex { $0.key == key }
        }
        if memberPositions.isEmpty {
            memberPositions.reserveCapacity(members.count * 2)
            for (index, member) in members.enumerated() { memberPositions[member.key] = index }
        }
        WorkMeter.count(.encoderSteps)
        return memberPositions[key]
    }

    /// A node that encodes `value` at `depth` only when it is written out.
    package static func pending<T: Encodable>(
        _ value: T, depth: Int, codingPath: [any CodingKey], options: EncodingOptions
    ) -> EncodingNode {
        let node = EncodingNode(depth: depth)
        node.content = .pending { try encode(value, depth: depth, codingPath: codingPath, options: options) }
        return node
    }

    /// Encodes `value` into a new node at `depth`.
    package static func encode<T: Encodable>(
        _ value: T, depth: Int, codingPath: [any CodingKey], options: EncodingOptions
    ) throws -> EncodingNode {
        let node = EncodingNode(depth: depth)
        if let text = try scalarText(value, codingPath: codingPath) {
            node.content = .text(text)
            return node
        }
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, options: options))
        return node
    }

    /// The types JSON writes as scalars rather than through their own `encode(to:)`.
    private static func scalarText(_ value: Any, codingPath: [any CodingKey]) throws -> [UInt8]? {
        switch value {
        case let date as Date: return stringText(DocumentDates.format(date))
        case let url as URL: return stringText(url.absoluteString)
        case let data as Data: return stringText(data.base64EncodedString())
        case let string as String: return stringText(string)
        case let double as Double: return try numberText(double, codingPath: codingPath)
        default: return nil
        }
    }

    package static func stringText(_ value: String) -> [UInt8] {
        var output: [UInt8] = []
        JSONText.appendString(value, to: &output)
        return output
    }

    package static func numberText(_ value: Double, codingPath: [any CodingKey]) throws -> [UInt8] {
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as JSON"))
        }
        return Array(text.utf8)
    }

    /// Writes the node's text into `output`: pending members are encoded now, in key
    /// order, and their text is gone again once written.
    package func append(to output: inout some JSONByteSink, pretty: Bool) throws {
        switch content {
        case .empty: output.append(contentsOf: "{}".utf8)
        case .text(let text): output.append(contentsOf: text)
        case .pending(let encode): try encode().append(to: &output, pretty: pretty)
        case .object(let members):
            try JSONText.appendObject(members.map { ($0.key, $0.node) }, to: &output, pretty: pretty, indent: depth) {
                node, output in
                try node.append(to: &output, pretty: pretty)
            }
        case .array(let elements):
            try JSONText.appendArray(elements, to: &output, pretty: pretty, indent: depth) { node, output in
                try node.append(to: &output, pretty: pretty)
            }
        }
    }
}

/// The `Encoder` handed to each value's `encode(to:)`.
private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let options: EncodingOptions
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(node: EncodingNode, codingPath: [any CodingKey], options: EncodingOptions) {
        self.node = node
        self.codingPath = codingPath
        self.options = options
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath, options: options))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, options: options)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath, options: options)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let options: EncodingOptions

    private func set(_ child: EncodingNode, forKey key: Key) {
        node.setMember(child, forKey: key.stringValue)
    }

    private func set(text: [UInt8], forKey key: Key) {
        let child = EncodingNode(depth: node.depth + 1)
        child.content = .text(text)
        set(child, forKey: key)
    }

    mutating func encodeNil(forKey key: Key) throws { set(text: Array("null".utf8), forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        set(text: Array((value ? "true" : "false").utf8), forKey: key)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        set(text: EncodingNode.stringText(value), forKey: key)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(text: try EncodingNode.numberText(value, codingPath: codingPath + [key]), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(text: Array(String(value).utf8), forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(
            EncodingNode.pending(value, depth: node.depth + 1, codingPath: codingPath + [key], options: options),
            forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(depth: node.depth + 1)
        set(child, forKey: key)
        return NodeEncoder(node: child, codingPath: codingPath + [key], options: options).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(depth: node.depth + 1)
        set(child, forKey: key)
        return NodeEncoder(node: child, codingPath: codingPath + [key], options: options).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode(depth: node.depth + 1)
        set(child, forKey: key)
        return NodeEncoder(node: child, codingPath: codingPath + [key], options: options)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let options: EncodingOptions

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    private func append(_ child: EncodingNode) {
        guard case .array(var elements) = node.content else { return }
        node.content = .empty  // let `elements` be the only reference while it grows
        elements.append(child)
        node.content = .array(elements)
    }

    private func append(text: [UInt8]) {
        let child = EncodingNode(depth: node.depth + 1)
        child.content = .text(text)
        append(child)
    }

    private var nextKey: AnyCodingKey { AnyCodingKey(intValue: count) }

    mutating func encodeNil() throws { append(text: Array("null".utf8)) }
    mutating func encode(_ value: Bool) throws { append(text: Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String) throws { append(text: EncodingNode.stringText(value)) }
    mutating func encode(_ value: Double) throws {
        append(text: try EncodingNode.numberText(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: Int8) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: Int16) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: Int32) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: Int64) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: UInt) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: UInt8) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: UInt16) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: UInt32) throws { append(text: Array(String(value).utf8)) }
    mutating func encode(_ value: UInt64) throws { append(text: Array(String(value).utf8)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(EncodingNode.pending(value, depth: node.depth + 1, codingPath: codingPath + [nextKey], options: options))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = EncodingNode(depth: node.depth + 1)
        let path = codingPath + [nextKey]
        append(child)
        return NodeEncoder(node: child, codingPath: path, options: options).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(depth: node.depth + 1)
        let path = codingPath + [nextKey]
        append(child)
        return NodeEncoder(node: child, codingPath: path, options: options).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(depth: node.depth + 1)
        let path = codingPath + [nextKey]
        append(child)
        return NodeEncoder(node: child, codingPath: path, options: options)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let options: EncodingOptions

    private func set(_ text: [UInt8]) { node.content = .text(text) }

    mutating func encodeNil() throws { set(Array("null".utf8)) }
    mutating func encode(_ value: Bool) throws { set(Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String) throws { set(EncodingNode.stringText(value)) }
    mutating func encode(_ value: Double) throws { set(try EncodingNode.numberText(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: Int8) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: Int16) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: Int32) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: Int64) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt8) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt16) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt32) throws { set(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt64) throws { set(Array(String(value).utf8)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let encoded = try EncodingNode.encode(value, depth: node.depth, codingPath: codingPath, options: options)
        node.content = encoded.content
    }
}
