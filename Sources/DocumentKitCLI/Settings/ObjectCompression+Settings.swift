import DocumentKit
import Foundation

extension ObjectCompression {
    /// The user's `compression` setting (zstd when unset). Throws when the preferences
    /// cannot be read or hold a value that is not a compression.
    public static func configured(settings: UserSettings? = nil) throws -> ObjectCompression {
        try (settings ?? UserSettings.snapshot.get()).compression.get() ?? .zstd
    }

    /// The user's setting, else zstd: never fails. Saves given no compression use it. A
    /// setting that cannot be read counts as unset, as ``Authorship`` does for an author
    /// that cannot be read but is not needed: a damaged preferences file must not stop
    /// saves (`docctl config get compression` reports it).
    public static func defaultForSaves() -> ObjectCompression {
        (try? configured()) ?? .zstd
    }
}

extension UserSettings {
    /// How saves store new objects (zstd unless set): `compression` in `docctl config`.
    public var compression: KeyValueContainer<ObjectCompression> { storage.makeContainer(default: .zstd) }
}
