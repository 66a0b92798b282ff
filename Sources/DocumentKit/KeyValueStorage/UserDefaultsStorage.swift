import Foundation

/// A ``KeyValueStorage`` over Foundation's `UserDefaults`, so that typed containers and
/// code using `UserDefaults` directly (`string(forKey:)`, `set(_:forKey:)`, `@AppStorage`
/// on Apple platforms) read and write the same values.
///
/// Values are stored as property lists, the form `UserDefaults` keeps natively: `String`,
/// `Int` and the other integers, `Double`, `Bool`, `Date` and `Data` as themselves;
/// arrays and dictionaries of them as arrays and dictionaries; an enum with a raw value as
/// that raw value; any other `Codable` value as the dictionary or array its `Codable`
/// encoding gives (through `PropertyListEncoder`). So a `KeyValueContainer<String>` set
/// to "Ada" is read back by `defaults.string(forKey:)`, and a value set with
/// `defaults.set(42, forKey:)` is read back by a `KeyValueContainer<Int>`. A value that
/// has no property-list form (a `nil` inside an array, an integer beyond `Int64`) is
/// refused with an error.
///
/// Every write is followed by `synchronize()`: on Apple platforms that is harmless, and
/// on Linux (swift-corelibs-foundation) it is what writes the values to disk, as
/// `$XDG_CONFIG_HOME/SUITE.plist`; without it they would be lost when the process ends.
/// That file is an XML property list, which keeps times to the second.
/// A suite name that is an absolute path names the file itself (`/tmp/x/suite` keeps its
/// values in `/tmp/x/suite.plist`), which is how tests keep away from the user's defaults.
public final class UserDefaultsStorage: KeyValueStorage, @unchecked Sendable {
    // UserDefaults is thread-safe, but swift-corelibs-foundation does not declare it Sendable.
    /// The defaults read and written.
    public let defaults: UserDefaults
    public let keyPrefix: String

    /// A storage over `defaults` (by default the standard defaults of the process).
    public init(defaults: UserDefaults = .standard, keyPrefix: String = "") {
        self.defaults = defaults
        self.keyPrefix = keyPrefix
    }

    /// A storage over the defaults of the suite `suiteName`; `nil` when Foundation refuses
    /// the name (it refuses the app's own bundle identifier and `NSGlobalDomain`).
    public convenience init?(suiteName: String, keyPrefix: String = "") {
        guard let defaults = UserDefaults(suiteName: suiteName) else { return nil }
        self.init(defaults: defaults, keyPrefix: keyPrefix)
    }

    public func value<T: Codable>(_ type: T.Type, forKey key: String) throws -> T? {
        let full = fullKey(key)
        guard let object = defaults.object(forKey: full) else { return nil }
        return try PropertyListValue.decode(T.self, from: object, key: full)
    }

    public func setValue<T: Codable>(_ value: T?, forKey key: String) throws {
        let full = fullKey(key)
        if let value {
            defaults.set(try PropertyListValue.encode(value, key: full), forKey: full)
        } else {
            defaults.removeObject(forKey: full)
        }
        defaults.synchronize()
    }

    /// The keys under this instance's prefix that the defaults hold, including values
    /// registered with `register(defaults:)` and given as `-key value` arguments.
    public func keys() throws -> [String] {
        unprefixed(defaults.dictionaryRepresentation().keys)
    }
}
