import Foundation

/// How a save stores the objects it adds: `compression` in `docctl config`, or per save
/// through ``SaveMetadata/compression``.
///
/// It applies to new objects only: objects the bundle already has are copied as they are
/// stored, whatever their codec, and an old document is still stored as a delta of the
/// new one (a delta is a zstd frame by definition, FORMAT.md §4), since that is how a
/// history stays cheap rather than a choice of compression.
public enum ObjectCompression: String, CaseIterable, Codable, Sendable {
    /// zstd for objects of 128 bytes to 16 MiB, kept for an object only when it saves a
    /// tenth of its size; the rest stored as they are. The default.
    case zstd
    /// New objects stored as they are (codec `identity`): readable with `unzip -p` alone.
    case none

    /// The user's `compression` setting (zstd when unset). Throws when the preferences
    /// cannot be read or hold a value that is not a compression.
    public static func configured(settings: UserSettings? = nil) throws -> ObjectCompression {
        try (settings ?? .standard()).compression.get() ?? .zstd
    }

    /// The user's setting, else zstd: never fails. ``SaveMetadata`` uses it when given
    /// none. A setting that cannot be read counts as unset, as ``Authorship`` does for
    /// an author that cannot be read but is not needed: a damaged preferences file must
    /// not stop saves (`docctl config get compression` reports it).
    public static func defaultForSaves() -> ObjectCompression {
        (try? configured()) ?? .zstd
    }
}

extension UserSettings {
    /// How saves store new objects (zstd unless set): `compression` in `docctl config`.
    public var compression: KeyValueContainer<ObjectCompression> { storage.makeContainer(default: .zstd) }
}
