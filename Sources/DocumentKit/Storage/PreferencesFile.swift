import Foundation

/// A user's preferences as one JSON object in a file, such as docctl's
/// `$XDG_CONFIG_HOME/docctl/preferences.json` (`~/.config/docctl/preferences.json` when
/// `XDG_CONFIG_HOME` is unset):
///
/// ```json
/// {
///   "authorEmail" : "ada@example.org",
///   "authorName" : "Ada Lovelace"
/// }
/// ```
///
/// - **Safe between processes.** A write takes an exclusive `flock(2)` on the file's
///   folder, reads the file afresh, changes only its own key, and replaces the file
///   atomically (``AtomicReplacement``: a temporary file, flushed, renamed). Two processes
///   setting different keys at once both land; neither writes back a stale copy.
///   Readers take no lock: the rename lets them see the whole old file or the whole new one.
/// - **Never silently overwritten.** A file that is not a JSON object is an error naming
///   the file (`.malformedInput`, exit 65) for reads *and* writes, so a hand edit with a
///   typo is reported rather than replaced.
/// - **Readable.** Keys sorted, two-space indents, a final newline. A new file gets the
///   permissions of the umask (0666 less it); an existing one keeps its own.
///
/// Values are stored as JSON: times as UTC whole seconds (`2026-11-22T09:30:00Z`), data
/// as base64, other `Codable` values as their JSON encoding.
public final class PreferencesFile: JSONObjectStorage {
    /// The file. It need not exist: a missing file holds nothing, and the first write
    /// creates it and its folder.
    public let url: URL
    public let keyPrefix: String

    /// Files larger than this are refused: a preferences file is a few hundred bytes.
    package static let sizeLimit = 1 << 20

    /// The preferences in the file at `url`.
    public init(url: URL, keyPrefix: String = "") {
        self.url = url
        self.keyPrefix = keyPrefix
    }

    /// The preferences of `application` for the user whose environment is `environment`
    /// (the program passes its own), in ``location(application:environment:)``.
    public convenience init(application: String, keyPrefix: String = "", environment: [String: String]) throws {
        self.init(url: try PreferencesFile.location(application: application, environment: environment), keyPrefix: keyPrefix)
    }

    /// `$XDG_CONFIG_HOME/APPLICATION/preferences.json`, following the XDG Base Directory
    /// specification: `XDG_CONFIG_HOME` counts only when it is an absolute path, and
    /// defaults to `$HOME/.config` (the home folder from the user database when `HOME` is unset).
    public static func location(application: String, environment: [String: String]) throws -> URL {
        let configHome: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else if let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? userDatabaseHome() {
            configHome = (home as NSString).appendingPathComponent(".config")
        } else {
            throw DocumentKitError(.missingInput, "cannot find the preferences: neither XDG_CONFIG_HOME nor HOME is set, and the user has no home folder")
        }
        return URL(fileURLWithPath: configHome, isDirectory: true)
            .appendingPathComponent(application, isDirectory: true)
            .appendingPathComponent("preferences.json")
    }

    /// The file's path, for messages.
    public var storagePath: String { url.path }

    /// Everything in the file, by full key, whatever its prefix; empty when there is no file.
    public func storedValues() throws -> [String: JSONValue] {
        try PreferencesFile.read(AtomicReplacement.resolvingSymbolicLinks(url), named: url.path).values
    }

    private static func userDatabaseHome() -> String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
