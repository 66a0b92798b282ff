import DocumentKit
import Foundation

/// What `docctl state` does: a bundle's state (``BundleState``) read and written by name,
/// as text, the way `docctl config` does the user's settings (``NamedUserSettings``).
///
/// The state DocumentKit declares has dotted names (`export.format`) and a type: a value
/// the setting does not take is a usage error, and nothing is written. Every other key in
/// `state.json` belongs to an application, which declared it in its own extension of
/// ``BundleState``: it is listed, read and removed by its key as stored, and set to a JSON
/// value (or a string), since only the application knows its type. A name is looked up as
/// a setting's name first, then as a setting's key (`exportFormat`), so the typed rules
/// cannot be bypassed through the key.
public enum NamedBundleState {
    /// One setting of ``BundleState``.
    public typealias Setting = NamedSetting<BundleState>

    /// The state `docctl state` knows by name, in the order `list` shows it.
    public static let settings: [Setting] = [
        .choice("export.format", summary: "the format 'docctl export' writes when given no --format") {
            $0.exportFormat
        },
        .uuid("task.last-opened", summary: "the id of the task last open in this bundle") { $0.lastOpenedTask },
        .text(
            "remote.default", summary: "the remote push and pull use when given none; clone sets it",
            normalized: RememberedRemote.form
        ) { $0.defaultRemote }
    ]

    /// The value of `name` in the state of the bundle at `url`: a known setting, or any key
    /// an application stored (`isSet` is false when nothing is stored under it).
    public static func get(_ name: String, in url: URL) throws -> NamedSettingValue {
        if let setting = try setting(named: name) { return try setting.entry(in: BundleState(bundle: url)) }
        let value = try BundleStateStorage(url: url).storedValues()[name]
        return NamedSettingValue(name: name, key: name, value: value, isSet: value != nil, defaultValue: nil)
    }

    /// Every known setting's value, then every other stored key, sorted. Reads the bundle once.
    public static func list(in url: URL) throws -> [NamedSettingValue] {
        let stored = try BundleStateStorage(url: url).storedValues()
        return try DocumentKitError.located(at: url.relativePath) {
            let snapshot = BundleState(storage: InMemoryStorage(values: stored))
            let known = try settings.map { try $0.entry(in: snapshot) }
            let others = stored.keys.filter { key in !settings.contains { $0.key == key } }.sorted()
            return known
                + others.map { NamedSettingValue(name: $0, key: $0, value: stored[$0], isSet: true, defaultValue: nil) }
        }
    }

    /// Sets `name` in the state of the bundle at `url` to the value the text `value` stands
    /// for: parsed as the setting's type for a known setting (refused with a usage error,
    /// writing nothing, when it is not one); for any other key, JSON where it parses,
    /// otherwise a string, or always a string with `asString`. Makes no version.
    public static func set(_ name: String, to value: String, asString: Bool = false, in url: URL) throws {
        if let setting = try setting(named: name) { return try setting.write(BundleState(bundle: url), value) }
        try BundleStateStorage(url: url).setValue(
            asString ? .string(value) : JSONValue.parseArgument(value), forKey: name)
    }

    /// What ``set(_:to:asString:in:)`` checks, without writing: the bundle opens, the key is
    /// not empty, and a known setting takes `value`. For a dry run.
    public static func check(_ name: String, value: String?, in url: URL) throws {
        _ = try DocumentBundle(contentsOf: url)
        guard let setting = try setting(named: name), let value else { return }
        try setting.write(BundleState(storage: InMemoryStorage()), value)
    }

    /// Removes `name` (a known setting or any stored key) from the state of the bundle at
    /// `url`; nothing is written when it is not there.
    public static func unset(_ name: String, in url: URL) throws {
        if let setting = try setting(named: name) { return try setting.remove(BundleState(bundle: url)) }
        try BundleStateStorage(url: url).removeValue(forKey: name)
    }

    /// Removes the whole state of the bundle at `url`, even when it cannot be read.
    public static func clear(in url: URL) throws {
        try BundleStateStorage(url: url).removeAll()
    }

    /// The known setting called `name` (or whose key is `name`), `nil` for an application's
    /// key; a usage error for an empty name.
    static func setting(named name: String) throws -> Setting? {
        guard !name.isEmpty else { throw DocumentKitError(.usage, "a state key must not be empty") }
        return settings.first { $0.name == name } ?? settings.first { $0.key == name }
    }
}
