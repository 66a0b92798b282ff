import Foundation

/// A ``KeyValueStorage`` in memory, for tests and previews. Values are kept as JSON, as
/// ``PreferencesFile`` keeps them, so a type mismatch fails here as it would there.
///
/// ```swift
/// let state = BundleState(storage: InMemoryStorage())
/// try state.lastOpenedTask.set(taskID)
/// ```
public final class InMemoryStorage: KeyValueStorage, @unchecked Sendable {
    public let keyPrefix: String
    // Shared between the instances `prefixed(_:)` makes, as several instances with
    // different prefixes share one file or one defaults domain.
    private let shared: Values

    /// An empty storage, or one holding `values` (by key, with any prefix already applied).
    public init(keyPrefix: String = "", values: [String: JSONValue] = [:]) {
        self.keyPrefix = keyPrefix
        shared = Values(values)
    }

    private init(keyPrefix: String, shared: Values) {
        self.keyPrefix = keyPrefix
        self.shared = shared
    }

    /// A storage over the same values whose keys carry `prefix` instead.
    public func prefixed(_ prefix: String) -> InMemoryStorage {
        InMemoryStorage(keyPrefix: prefix, shared: shared)
    }

    /// Everything stored, by full key, whatever its prefix.
    public var storedValues: [String: JSONValue] {
        shared.read { $0 }
    }

    public func value<T: Codable>(_ type: T.Type, forKey key: String) throws -> T? {
        let full = fullKey(key)
        guard let stored = shared.read({ $0[full] }) else { return nil }
        return try KeyValueCodec.decode(T.self, from: stored, key: full, path: nil)
    }

    public func setValue<T: Codable>(_ value: T?, forKey key: String) throws {
        let full = fullKey(key)
        let json = try value.map { try KeyValueCodec.encode($0, key: full) }
        shared.write { $0[full] = json }
    }

    public func keys() throws -> [String] {
        unprefixed(shared.read { $0.keys })
    }

    /// The values behind one or more instances, behind a lock.
    private final class Values: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: JSONValue]

        init(_ values: [String: JSONValue]) { self.values = values }

        func read<R>(_ body: ([String: JSONValue]) -> R) -> R {
            lock.withLock { body(values) }
        }

        func write(_ body: (inout [String: JSONValue]) -> Void) {
            lock.withLock { body(&values) }
        }
    }
}
