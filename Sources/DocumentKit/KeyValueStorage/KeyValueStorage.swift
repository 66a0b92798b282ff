import Foundation

/// A store of `Codable` values by key: the user's preferences file, `UserDefaults`, memory.
///
/// Values are read and written with their type named, and a value stored with another
/// type is an error that names the key, the type asked for and what is stored: never a
/// silent `nil` or default. Keys are plain strings; each instance prepends its
/// ``keyPrefix``, so several components can share one store without seeing each other's
/// keys.
///
/// Rather than spelling keys and types at each use, declare each setting once as a
/// ``KeyValueContainer``, named by the property that holds it:
///
/// ```swift
/// extension KeyValueStorage {
///     /// Stored under the key "recentFiles".
///     var recentFiles: KeyValueContainer<[String]> { makeContainer(default: []) }
///     /// Stored under the key "zoom".
///     var zoom: KeyValueContainer<Double> { makeContainer(default: 1) }
/// }
///
/// let storage = PreferencesFile(url: preferencesURL)
/// try storage.zoom.set(1.5)
/// let zoom = try storage.zoom.get()   // 1.5; the default 1 when nothing is stored
/// ```
///
/// Because the key is the property's name (`#function`), a second setting declared with
/// the same key is a second property with the same name on the same type: within a
/// module the compiler refuses it as an invalid redeclaration (extensions included), so
/// two settings cannot share a key by accident. (Another module may shadow the name, so
/// give each module's settings their own type or ``keyPrefix``.)
///
/// Implementations: ``PreferencesFile`` (a JSON file, safe between processes),
/// ``UserDefaultsStorage`` (Foundation's defaults, readable through their own API) and
/// ``InMemoryStorage`` (for tests). Per-bundle state can conform too: the requirements
/// ask for nothing beyond reading, writing and listing keys.
public protocol KeyValueStorage: AnyObject, Sendable {
    /// Prepended to every key this instance reads, writes or lists: with `"export."`,
    /// the key `format` is stored as `export.format`.
    var keyPrefix: String { get }

    /// The value stored under `key` (without the prefix), or `nil` when none is.
    ///
    /// Throws a `DocumentKitError` when the stored value is not a `T` (naming the key,
    /// the expected type and what is stored) or the store cannot be read.
    func value<T: Codable>(_ type: T.Type, forKey key: String) throws -> T?

    /// Stores `value` under `key` (without the prefix), or removes the key when `value`
    /// is `nil`.
    func setValue<T: Codable>(_ value: T?, forKey key: String) throws

    /// The keys stored under this instance's prefix, without it, sorted.
    func keys() throws -> [String]
}

extension KeyValueStorage {
    /// A container for the setting named by the calling property: declared as
    /// `var authorName: KeyValueContainer<String> { makeContainer() }`, its key is
    /// `authorName`. `key` need be given only to keep a key a property was renamed from.
    ///
    /// - Parameters:
    ///   - key: The key, without this storage's prefix; by default the caller's name.
    ///   - defaultValue: What ``KeyValueContainer/get()`` returns when nothing is stored.
    public func makeContainer<Value: Codable>(key: String = #function, default defaultValue: Value? = nil)
        -> KeyValueContainer<Value>
    {
        KeyValueContainer(storage: self, key: key, defaultValue: defaultValue)
    }

    /// Removes the value stored under `key`, if any.
    public func removeValue(forKey key: String) throws {
        try setValue(JSONValue?.none, forKey: key)
    }

    /// `key` with this instance's prefix: the name the value has in the underlying store.
    public func fullKey(_ key: String) -> String {
        keyPrefix + key
    }

    /// The stored keys that carry this instance's prefix, without it, sorted.
    package func unprefixed(_ storedKeys: some Sequence<String>) -> [String] {
        storedKeys.filter { $0.hasPrefix(keyPrefix) }.map { String($0.dropFirst(keyPrefix.count)) }.sorted()
    }
}
