import Foundation

/// A ``KeyValueStorage`` over a bundle's state: the `state.json` entry, kept in the
/// bundle file but outside its history (FORMAT.md §3.1). Typed containers over it are
/// declared on ``BundleState``.
///
/// - **Not a version.** Writing state never makes a version, never moves the head and
///   leaves the document, the objects and the manifest byte for byte as they were; saves,
///   `prune`, `restore` and `migrate` carry the state over unchanged.
/// - **Safe between processes, and crash-safe.** A write takes the bundle's writer lock
///   (the one saves take), reads the state afresh, changes only its keys, and writes it as
///   a save would: appended in place behind the journal, or, when superseded bytes would
///   pass a third of the file, by rewriting the bundle and renaming it into place. Two
///   processes setting different keys at once both land. Readers take no lock.
/// - **Never silently overwritten.** A `state.json` that is not a JSON object, or larger
///   than `BundleLimits.maxStateBytes`, is an error naming the bundle (`malformedInput`,
///   exit 65) for reads and writes alike; ``removeAll()`` is the way out.
/// - **Small.** The state as a whole is limited to `BundleLimits.maxStateBytes` (1 MiB);
///   a write past it is refused (`invalidDocument`) and changes nothing.
///
/// Values are stored as JSON, as ``PreferencesFile`` stores them (``JSONObjectStorage``).
public final class BundleStateStorage: JSONObjectStorage {
    /// The bundle file.
    public let url: URL
    public let keyPrefix: String
    /// The bounds the bundle is read and the state written within.
    public let limits: BundleLimits

    /// The state of the bundle at `url`, which must exist when the state is read or written.
    public init(url: URL, keyPrefix: String = "", limits: BundleLimits = .default) {
        self.url = url
        self.keyPrefix = keyPrefix
        self.limits = limits
    }

    /// The bundle's path as it was given, for messages.
    public var storagePath: String { url.relativePath }

    /// Everything in the state, by full key, whatever its prefix; empty when the bundle
    /// has no `state.json`.
    public func storedValues() throws -> [String: JSONValue] {
        try DocumentBundle.currentState(of: url, limits: limits)
    }

    /// Applies `change` to the whole state (by full key) under the bundle's writer lock:
    /// reads it afresh, and writes it only if `change` changed it. Several keys changed
    /// here are one write. Throws what `change` throws, having written nothing.
    public func update(_ change: (inout [String: JSONValue]) throws -> Void) throws {
        try DocumentKitError.located(at: url.relativePath) {
            try BundleSaver.locked(at: url) { saver in
                let stored = try saver.bundle.storedState()
                var values = stored
                try change(&values)
                guard values != stored else { return }
                try saver.writeState(try BundleStateEntry.encode(values, limits: limits))
            }
        }
    }

    /// Removes the whole state, every key whatever its prefix, without reading it: also
    /// when `state.json` is damaged (not a JSON object, or too large), which is how such a
    /// bundle is mended (`docctl state clear`).
    public func removeAll() throws {
        try DocumentKitError.located(at: url.relativePath) {
            try BundleSaver.locked(at: url) { saver in
                guard saver.bundle.zip.entry(named: BundleEntry.state) != nil else { return }
                try saver.writeState(nil)
            }
        }
    }
}
