import DocumentKit
import Foundation

/// One setting people read and write by name, as text: `author.name` of ``UserSettings``
/// in `docctl config`, `export.format` of ``BundleState`` in `docctl state`.
///
/// Names are dotted and lower case, for people; each maps to one typed container of
/// `Settings`, whose key (the property's name, `authorName`) is what the storage holds.
/// The text a user gives is parsed into the container's type before anything is written,
/// so a value the setting does not take is a usage error that changes nothing.
public struct NamedSetting<Settings: KeyValueSettings>: Sendable {
    /// The name people type: `author.name`.
    public let name: String
    /// The key its container stores it under: `authorName`.
    public let key: String
    /// What it is for, as a short phrase: `your name, as the author of …`.
    public let summary: String
    /// The values it accepts, when it is a choice among a few.
    public let choices: [String]?
    let read: @Sendable (Settings) throws -> (stored: JSONValue?, defaultValue: JSONValue?)
    let write: @Sendable (Settings, String) throws -> Void
    let remove: @Sendable (Settings) throws -> Void

    func entry(in settings: Settings) throws -> NamedSettingValue {
        let (stored, defaultValue) = try read(settings)
        return NamedSettingValue(
            name: name, key: key, value: stored ?? defaultValue, isSet: stored != nil, defaultValue: defaultValue)
    }

    /// A setting whose value is any non-blank text, kept as a string, after `normalized`
    /// (which makes a relative path absolute, say, so that it means the same from anywhere).
    static func text(
        _ name: String, summary: String, normalized: @escaping @Sendable (String) -> String = { $0 },
        _ container: @escaping @Sendable (Settings) -> KeyValueContainer<String>
    ) -> Self {
        make(name, summary: summary, choices: nil, container) { text in
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw DocumentKitError(.usage, "the value must not be blank (use 'unset' to remove it)", location: name)
            }
            return normalized(text)
        }
    }

    /// A setting whose value is one of an enumeration's raw values.
    static func choice<Value: Codable & CaseIterable & RawRepresentable & Sendable>(
        _ name: String, summary: String, _ container: @escaping @Sendable (Settings) -> KeyValueContainer<Value>
    ) -> Self where Value.RawValue == String {
        let choices = Value.allCases.map(\.rawValue)
        return make(name, summary: summary, choices: choices, container) { text in
            guard let value = Value(rawValue: text) else {
                throw DocumentKitError(.usage, "'\(text)' is not one of \(StoredType.listing(choices))", location: name)
            }
            return value
        }
    }

    /// A setting whose value is a number in `range`: a count (`Int`) or an amount (`Double`).
    static func number<Value: Codable & Sendable & Comparable & LosslessStringConvertible>(
        _ name: String, summary: String, in range: ClosedRange<Value>,
        _ container: @escaping @Sendable (Settings) -> KeyValueContainer<Value>
    ) -> Self {
        make(name, summary: summary, choices: nil, container) { text in
            guard let value = Value(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
                // 86400, not Double's 86400.0.
                let bounds = [range.lowerBound, range.upperBound].map {
                    "\($0)".replacingOccurrences(of: #"\.0$"#, with: "", options: .regularExpression)
                }
                throw DocumentKitError(
                    .usage, "'\(text)' is not a number from \(bounds[0]) to \(bounds[1])", location: name)
            }
            return value
        }
    }

    /// A setting whose value is a UUID, such as a task's id; read in either letter case,
    /// stored as `UUID` writes it (upper case).
    static func uuid(
        _ name: String, summary: String,
        _ container: @escaping @Sendable (Settings) -> KeyValueContainer<UUID>
    ) -> Self {
        make(name, summary: summary, choices: nil, container) { text in
            guard let value = UUID(uuidString: text) else {
                throw DocumentKitError(
                    .usage, "'\(text)' is not a UUID (such as 6F9619FF-8B86-D011-B42D-00C04FC964FF)", location: name)
            }
            return value
        }
    }

    private static func make<Value: Codable & Sendable>(
        _ name: String, summary: String, choices: [String]?,
        _ container: @escaping @Sendable (Settings) -> KeyValueContainer<Value>,
        parse: @escaping @Sendable (String) throws -> Value
    ) -> Self {
        // The key comes from the container itself, so it can never disagree with it.
        let key = container(Settings(storage: InMemoryStorage())).key
        return NamedSetting(
            name: name, key: key, summary: summary, choices: choices,
            read: { settings in
                let container = container(settings)
                let stored = try container.storedValue()
                return (
                    try stored.map { try KeyValueCodec.encode($0, key: key) },
                    try container.defaultValue.map { try KeyValueCodec.encode($0, key: key) }
                )
            },
            // Parsed before the container is touched: a refused value writes nothing.
            write: { settings, text in
                let value = try parse(text)
                try container(settings).set(value)
            },
            remove: { settings in try container(settings).remove() })
    }
}
