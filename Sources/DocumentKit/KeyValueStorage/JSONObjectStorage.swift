import Foundation

/// A ``KeyValueStorage`` whose values are one JSON object, read whole and changed whole,
/// such as ``PreferencesFile`` and ``BundleStateStorage``. Such a storage provides only
/// `storedValues()` and `update(_:)`; the typed get, set and key listing are shared.
///
/// Values are stored as JSON (`KeyValueCodec`): times as UTC whole seconds, data as
/// base64, other `Codable` values as their JSON encoding. A value is encoded before
/// `update` runs, so one that cannot be stored changes nothing.
public protocol JSONObjectStorage: KeyValueStorage {
    /// Everything stored, by full key, whatever its prefix.
    func storedValues() throws -> [String: JSONValue]
    /// Applies `change` to all the values (by full key) at once, atomically and safely
    /// against other writers; writes nothing if `change` throws or changes nothing.
    func update(_ change: (inout [String: JSONValue]) throws -> Void) throws
    /// The file the values are kept in, as messages name it.
    var storagePath: String { get }
}

extension JSONObjectStorage {
    public func value<T: Codable>(_ type: T.Type, forKey key: String) throws -> T? {
        let full = fullKey(key)
        guard let stored = try storedValues()[full] else { return nil }
        return try KeyValueCodec.decode(T.self, from: stored, key: full, path: storagePath)
    }

    public func setValue<T: Codable>(_ value: T?, forKey key: String) throws {
        let full = fullKey(key)
        let json = try value.map { try KeyValueCodec.encode($0, key: full) }
        try update { $0[full] = json }
    }

    public func keys() throws -> [String] {
        unprefixed(try storedValues().keys)
    }
}
