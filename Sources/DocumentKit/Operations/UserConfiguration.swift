import Foundation

/// What `docctl config` does: the settings a user sets by name (`author.name`), each a
/// typed container of ``UserSettings``, read and written as text.
///
/// Names are dotted and lower case, for people; each maps to one container, whose key
/// (the property's name, `authorName`) is what the preferences file holds.
public enum UserConfiguration {
    /// The settings `docctl config` knows, in the order `list` shows them.
    public static let settings: [Setting] = [
        .text("author.name", summary: "your name, as the author of the versions you save") { $0.authorName },
        .text("author.email", summary: "your email, saved with your name as 'Name <email>'") { $0.authorEmail },
        .choice("export.format", summary: "the format 'docctl export' writes when given no --format") { $0.exportFormat },
        // Kept for the writer to consult; saves do not apply it yet, as the summary says.
        .choice("compression", summary: "compression of new objects (default zstd; not yet applied)") { $0.compression },
    ]

    /// The setting called `name`; a usage error listing the known names if there is none.
    public static func setting(named name: String) throws -> Setting {
        guard let setting = settings.first(where: { $0.name == name }) else {
            throw DocumentKitError(.usage, "unknown setting '\(name)' (known: \(settings.map(\.name).joined(separator: ", ")))")
        }
        return setting
    }

    /// The value of the setting `name` in `settings` (by default the user's preferences).
    public static func get(_ name: String, settings: UserSettings? = nil) throws -> Entry {
        let setting = try setting(named: name)
        return try setting.entry(in: settings ?? .standard())
    }

    /// Every known setting's value.
    public static func list(settings: UserSettings? = nil) throws -> [Entry] {
        let settings = try settings ?? .standard()
        return try self.settings.map { try $0.entry(in: settings) }
    }

    /// Sets `name` to the value the text `value` stands for. A value the setting does not
    /// accept is a usage error, and nothing is written.
    public static func set(_ name: String, to value: String, settings: UserSettings? = nil) throws {
        let setting = try setting(named: name)
        try setting.write(settings ?? .standard(), value)
    }

    /// Removes `name`'s value, so that its default applies again.
    public static func unset(_ name: String, settings: UserSettings? = nil) throws {
        let setting = try setting(named: name)
        try setting.remove(settings ?? .standard())
    }
}

extension UserConfiguration {
    /// One setting: its name, its key in the storage, and what it accepts.
    public struct Setting: Sendable {
        /// The name people type: `author.name`.
        public let name: String
        /// The key its container stores it under: `authorName`.
        public let key: String
        /// What it is for, as a short phrase: `your name, as the author of …`.
        public let summary: String
        /// The values it accepts, when it is a choice among a few.
        public let choices: [String]?
        let read: @Sendable (UserSettings) throws -> (stored: JSONValue?, defaultValue: JSONValue?)
        let write: @Sendable (UserSettings, String) throws -> Void
        let remove: @Sendable (UserSettings) throws -> Void

        func entry(in settings: UserSettings) throws -> Entry {
            let (stored, defaultValue) = try read(settings)
            return Entry(name: name, key: key, value: stored ?? defaultValue, isSet: stored != nil, defaultValue: defaultValue)
        }

        /// A setting whose value is any non-blank text, kept as a string.
        static func text(_ name: String, summary: String,
                         _ container: @escaping @Sendable (UserSettings) -> KeyValueContainer<String>) -> Setting {
            make(name, summary: summary, choices: nil, container) { text in
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw DocumentKitError(.usage, "the value must not be blank (use 'unset' to remove it)", location: name)
                }
                return text
            }
        }

        /// A setting whose value is one of an enumeration's raw values.
        static func choice<Value: Codable & CaseIterable & RawRepresentable & Sendable>(
            _ name: String, summary: String, _ container: @escaping @Sendable (UserSettings) -> KeyValueContainer<Value>
        ) -> Setting where Value.RawValue == String {
            let choices = Value.allCases.map(\.rawValue)
            return make(name, summary: summary, choices: choices, container) { text in
                guard let value = Value(rawValue: text) else {
                    throw DocumentKitError(.usage, "'\(text)' is not one of \(StoredType.listing(choices))", location: name)
                }
                return value
            }
        }

        private static func make<Value: Codable & Sendable>(
            _ name: String, summary: String, choices: [String]?,
            _ container: @escaping @Sendable (UserSettings) -> KeyValueContainer<Value>,
            parse: @escaping @Sendable (String) throws -> Value
        ) -> Setting {
            // The key comes from the container itself, so it can never disagree with it.
            let key = container(UserSettings(storage: InMemoryStorage())).key
            return Setting(
                name: name, key: key, summary: summary, choices: choices,
                read: { settings in
                    let container = container(settings)
                    let stored = try container.storedValue()
                    return (try stored.map { try StoredJSON.encode($0, key: key) },
                            try container.defaultValue.map { try StoredJSON.encode($0, key: key) })
                },
                write: { settings, text in try container(settings).set(try parse(text)) },
                remove: { settings in try container(settings).remove() })
        }
    }

    /// One setting's value, as `docctl config get` and `list` report it.
    public struct Entry: Codable, Equatable, Sendable {
        /// The setting's name: `author.name`.
        public var name: String
        /// Its key in the preferences file: `authorName`.
        public var key: String
        /// The value in effect: the stored one, else the default; `nil` when neither exists.
        public var value: JSONValue?
        /// Whether a value is stored.
        public var isSet: Bool
        /// The value when none is stored.
        public var defaultValue: JSONValue?

        enum CodingKeys: String, CodingKey {
            case name, key, value
            case isSet = "set"
            case defaultValue = "default"
        }

        // Absent values are written as null rather than left out, so that every entry
        // has the same members for scripts.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(key, forKey: .key)
            try container.encode(value ?? .null, forKey: .value)
            try container.encode(isSet, forKey: .isSet)
            try container.encode(defaultValue ?? .null, forKey: .defaultValue)
        }
    }
}
