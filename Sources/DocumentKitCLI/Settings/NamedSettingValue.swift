import DocumentKit
import Foundation

/// One setting's value, as `docctl config get` and `list` (and `docctl state`) report it.
public struct NamedSettingValue: Codable, Equatable, Sendable {
    /// The setting's name: `author.name`.
    public var name: String
    /// Its key in the storage (the preferences file, `state.json`): `authorName`.
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
