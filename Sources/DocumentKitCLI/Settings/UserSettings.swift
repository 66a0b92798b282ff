import DocumentKit
import Foundation

/// The settings a user keeps for DocumentKit's tools, as typed containers over a
/// ``KeyValueStorage``: by default the user's ``PreferencesFile``, the file
/// `docctl config` edits.
///
/// ```swift
/// let settings = try UserSettings.standard()
/// try settings.authorName.set("Ada Lovelace")
/// let name = try settings.authorName.get()
/// ```
///
/// Each setting is a computed property whose name is its key in the storage; more are
/// declared in extensions next to the code that uses them (`exportFormat` in Operations,
/// `compression` in Bundle). They are all members of this one type, so two settings
/// with the same key cannot both compile in DocumentKit.
public struct UserSettings: KeyValueSettings {
    /// Where the settings are kept.
    public let storage: any KeyValueStorage

    /// The settings kept in `storage`.
    public init(storage: any KeyValueStorage) {
        self.storage = storage
    }

    /// The settings in the user's preferences file, `PreferencesFile(application: "docctl")`:
    /// `$XDG_CONFIG_HOME/docctl/preferences.json`, else `~/.config/docctl/preferences.json`.
    static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> UserSettings {
        UserSettings(storage: try preferencesFile(environment: environment))
    }

    private static func preferencesFile(environment: [String: String]) throws -> PreferencesFile {
        try PreferencesFile(application: "docctl", environment: environment)
    }

    /// The user's settings as the preferences file held them when first asked for in this
    /// process: read once, however many settings a command reads (a save reads the
    /// author's name and email and the compression), or the error reading them gave.
    static let snapshot = Result { () throws -> UserSettings in
        UserSettings(
            storage: InMemoryStorage(
                values: try preferencesFile(environment: ProcessInfo.processInfo.environment).storedValues()))
    }

    /// Who the user is, for the versions they save: `author.name` in `docctl config`.
    public var authorName: KeyValueContainer<String> { storage.makeContainer() }

    /// The user's email address, added to their name in versions they save as
    /// `Name <email>`: `author.email` in `docctl config`.
    public var authorEmail: KeyValueContainer<String> { storage.makeContainer() }
}
