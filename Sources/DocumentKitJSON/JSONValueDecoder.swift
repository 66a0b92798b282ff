import DocumentKitCore
import Foundation

/// Decodes a `Decodable` value from an already parsed ``JSONValue``.
///
/// What reading a history decodes most: a version record is parsed once by DocumentKit's
/// parser and decoded from that tree, instead of being encoded again for Foundation's
/// `JSONDecoder`, which took 100 µs a record (a `validate` of 10,000 versions spent 4 s
/// in it). Dates are read from their text with ``DocumentDates/parse(_:)``, as
/// `DocumentDates.decoder()` reads them; errors are Swift's `DecodingError`s with their
/// coding paths, so that ``DecodingErrorDescription`` words them the same.
package struct JSONValueDecoder {
    /// What the decoded types' `init(from:)` find in `decoder.userInfo`, as with
    /// `JSONDecoder.userInfo`.
    package var userInfo: [CodingUserInfoKey: Any] = [:]

    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: [], userInfo: userInfo).decodeValue(type)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath, userInfo: userInfo)
    }

    /// Decodes `type` from this value: dates from their text, data from Base64 and URLs
    /// from their text (as `JSONDecoder` does), everything else by its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath) }
            guard let date = DocumentDates.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath,
                        debugDescription: "'\(text)' is not a date (use 2026-11-22 or 2026-11-22T09:30:00Z)"))
            }
            return date as! T
        }
        // As `JSONDecoder` reads them: their own `init(from:)` expects other shapes.
        if T.self == Data.self {
            guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath) }
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        }
        if T.self == URL.self {
            guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath) }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        return try T(from: self)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
    let found: String
    switch value {
    case .null:
        return DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Found null instead"))
    case .bool: found = "a boolean"
    case .integer, .number: found = "a number"
    case .string: found = "a string"
    case .array: found = "an array"
    case .object: found = "an object"
    }
    return DecodingError.typeMismatch(
        type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

/// The scalar decodings every container shares.
private func scalar<T>(_ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey]) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        let exact: I?
        switch value {
        case .integer(let number): exact = I(exactly: number)
        case .number(let number): exact = I(exactly: number)
        default: throw mismatch(type, value, codingPath)
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "Number \(value) does not fit in \(I.self)."))
        }
        return exact
    }
    let result: Any
    switch type {
    case is String.Type:
        guard case .string(let text) = value else { throw mismatch(type, value, codingPath) }
        result = text
    case is Bool.Type:
        guard case .bool(let flag) = value else { throw mismatch(type, value, codingPath) }
        result = flag
    case is Double.Type, is Float.Type:
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let real): number = real
        default: throw mismatch(type, value, codingPath)
        }
        result = type is Float.Type ? Float(number) as Any : number as Any
    case is Int.Type: result = try integer(Int.self)
    case is Int8.Type: result = try integer(Int8.self)
    case is Int16.Type: result = try integer(Int16.self)
    case is Int32.Type: result = try integer(Int32.self)
    case is Int64.Type: result = try integer(Int64.self)
    case is UInt.Type: result = try integer(UInt.self)
    case is UInt8.Type: result = try integer(UInt8.self)
    case is UInt16.Type: result = try integer(UInt16.self)
    case is UInt32.Type: result = try integer(UInt32.self)
    case is UInt64.Type: result = try integer(UInt64.self)
    default: preconditionFailure("\(type) is not a JSON scalar")
    }
    return result as! T
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type, from: value, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type, from: value, at: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder(value: value, codingPath: codingPath, userInfo: userInfo).decodeValue(type)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue).")
            )
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try scalar(type, from: member(key), at: codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key], userInfo: userInfo).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key], userInfo: userInfo).container(
            keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key], userInfo: userInfo).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try superDecoder(forKey: Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], userInfo: userInfo)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.elements = elements
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element and its coding path, moving past it.
    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [AnyCodingKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    private mutating func decodeScalar<T>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try scalar(type, from: value, at: path)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeScalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeScalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeScalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeScalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeScalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeScalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeScalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeScalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeScalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeScalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeScalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeScalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeScalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeScalar(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try ValueDecoder(value: value, codingPath: path, userInfo: userInfo).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let (value, path) = try next([String: JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path, userInfo: userInfo).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path, userInfo: userInfo).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path, userInfo: userInfo)
    }
}
