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

/// The `Encoder` handed to each value's `encode(to:)`.
struct NodeEncoder: Encoder {
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
