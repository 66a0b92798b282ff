import Foundation

/// How new objects are to be compressed: `compression` in `docctl config`. Stored for
/// writers to consult; saves do not apply it yet (they use zstd where it pays).
public enum ObjectCompression: String, CaseIterable, Codable, Sendable {
    /// zstd, kept for an object only when it saves a tenth of its size.
    case zstd
    /// Objects stored as they are.
    case none
}

extension UserSettings {
    /// The format exports use when none is named: `export.format` in `docctl config`.
    public var exportFormat: KeyValueContainer<ExportFormat> { storage.makeContainer() }

    /// How new objects are to be compressed (zstd unless set): `compression` in `docctl config`.
    public var compression: KeyValueContainer<ObjectCompression> { storage.makeContainer(default: .zstd) }
}

extension ExportFormat {
    /// The user's `export.format`, for an export that names no format; a usage error
    /// when it is not set.
    public static func configured(settings: UserSettings? = nil) throws -> ExportFormat {
        guard let format = try (settings ?? .standard()).exportFormat.get() else {
            throw DocumentKitError(.usage, "no export format given, and export.format is not set (docctl config set export.format FORMAT)")
        }
        return format
    }
}
