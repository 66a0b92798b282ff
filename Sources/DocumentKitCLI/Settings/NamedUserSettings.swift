import DocumentKit
import Foundation

/// What `docctl config` does: the settings a user sets by name (`author.name`), each a
/// typed container of ``UserSettings``, read and written as text.
///
/// Names are dotted and lower case, for people; each maps to one container, whose key
/// (the property's name, `authorName`) is what the preferences file holds.
public enum NamedUserSettings {
    /// The settings `docctl config` knows, in the order `list` shows them.
    public static let settings: [Setting] = [
        .text("author.name", summary: "your name, as the author of the versions you save") { $0.authorName },
        .text("author.email", summary: "your email, saved with your name as 'Name <email>'") { $0.authorEmail },
        .choice("export.format", summary: "the format 'docctl export' writes when given no --format") {
            $0.exportFormat
        },
        .choice("compression", summary: "how saves store new objects: zstd where it pays, or none") { $0.compression },
        .number(
            "format-version", summary: "the layout saves write: 3, or 2 (DocumentKit 0.3 reads)",
            in: BundleManifest.wholeManifestFormatVersion...BundleManifest.currentFormatVersion
        ) { $0.formatVersion },
        .number("remote.timeout", summary: "seconds an S3 request may go unanswered before a retry", in: 0.001...86_400)
        { $0.remoteTimeout },
        .number("remote.retries", summary: "how many times a failed S3 request is tried again", in: 0...100) {
            $0.remoteRetries
        },
        .number("remote.retry-budget", summary: "the most retries of all of a command's S3 requests", in: 0...10_000) {
            $0.remoteRetryBudget
        },
        .number("remote.jobs", summary: "how many files push, clone and pull move at once", in: 1...64) {
            $0.remoteJobs
        }
    ]

    /// The setting called `name`; a usage error listing the known names if there is none.
    public static func setting(named name: String) throws -> Setting {
        guard let setting = settings.first(where: { $0.name == name }) else {
            throw DocumentKitError(
                .usage, "unknown setting '\(name)' (known: \(settings.map(\.name).joined(separator: ", ")))")
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

extension NamedUserSettings {
    /// One setting of ``UserSettings``: its name, its key, and what it accepts.
    public typealias Setting = NamedSetting<UserSettings>
    /// One setting's value, as `docctl config get` and `list` report it.
    public typealias Entry = NamedSettingValue
}
