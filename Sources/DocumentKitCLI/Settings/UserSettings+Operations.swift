import DocumentKit
import Foundation

extension UserSettings {
    /// The format exports use when none is named: `export.format` in `docctl config`.
    public var exportFormat: KeyValueContainer<ExportFormat> { storage.makeContainer() }
}

extension ExportFormat {
    /// The user's `export.format`, for an export that names no format; a usage error
    /// when it is not set.
    public static func configured(settings: UserSettings? = nil) throws -> ExportFormat {
        guard let format = try (settings ?? .standard()).exportFormat.get() else {
            throw DocumentKitError(
                .usage,
                """
                no export format given: use --format, an output ending in .zip, .tar, .tar.gz, .tar.zst or .html \
                (a site), or set one (\(ToolSetup.name) config set export.format FORMAT)
                """
            )
        }
        return format
    }
}
