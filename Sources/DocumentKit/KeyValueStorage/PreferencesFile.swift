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
///   atomically (`AtomicReplacement`: a temporary file, flushed, renamed). Two processes
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

    /// The file's path, for messages.
    public var storagePath: String { url.path }

    /// Everything in the file, by full key, whatever its prefix; empty when there is no file.
    public func storedValues() throws -> [String: JSONValue] {
        try PreferencesFile.read(AtomicReplacement.resolvingSymbolicLinks(url), named: url.path).values
    }
}
