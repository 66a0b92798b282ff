import Foundation

/// One setting in a ``KeyValueStorage``: its key and type fixed once, where it is
/// declared, and an optional default for when nothing is stored.
///
/// Make one with ``KeyValueStorage/makeContainer(key:default:)`` from a computed property,
/// whose name becomes the key:
///
/// ```swift
/// extension KeyValueStorage {
///     var exportFormat: KeyValueContainer<ExportFormat> { makeContainer(default: .zip) }
/// }
/// try storage.exportFormat.set(.tarZstd)
/// try storage.exportFormat.get()    // .tarZstd
/// try storage.exportFormat.remove()
/// try storage.exportFormat.get()    // .zip, the default
/// ```
///
/// A container holds no value itself: every call reads or writes the storage, so two
/// containers for one key (or another process writing the file) always agree.
public struct KeyValueContainer<Value: Codable> {
    /// Where the value is kept.
    public let storage: any KeyValueStorage
    /// The key, without the storage's prefix.
    public let key: String
    /// What ``get()`` returns when nothing is stored.
    public let defaultValue: Value?

    /// A container for `key` in `storage`. Prefer ``KeyValueStorage/makeContainer(key:default:)``,
    /// which takes the key from the declaring property's name.
    public init(storage: any KeyValueStorage, key: String, defaultValue: Value? = nil) {
        self.storage = storage
        self.key = key
        self.defaultValue = defaultValue
    }

    /// The key as the underlying store names it: the storage's prefix and ``key``.
    public var fullKey: String { storage.fullKey(key) }

    /// The stored value, else the default, else `nil`.
    ///
    /// Throws when the stored value is not a `Value`: a value of the wrong type is
    /// reported, never replaced by the default.
    public func get() throws -> Value? {
        try storedValue() ?? defaultValue
    }

    /// The stored value, ignoring the default: `nil` when nothing is stored.
    public func storedValue() throws -> Value? {
        try storage.value(Value.self, forKey: key)
    }

    /// Stores `value`.
    public func set(_ value: Value) throws {
        try storage.setValue(value, forKey: key)
    }

    /// Removes the stored value, so that ``get()`` returns the default again.
    public func remove() throws {
        try storage.setValue(Value?.none, forKey: key)
    }
}

extension KeyValueContainer: Sendable where Value: Sendable {}
