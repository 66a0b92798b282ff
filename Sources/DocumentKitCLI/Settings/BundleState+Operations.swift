import DocumentKit
import Foundation

extension BundleState {
    /// The format this bundle is exported to when the export names none, as last chosen
    /// for it: `export.format` in `docctl state`. It comes before the user's own
    /// `export.format` (``UserSettings/exportFormat``).
    public var exportFormat: KeyValueContainer<ExportFormat> { storage.makeContainer() }
}

extension ExportFormat {
    /// The format an export of the bundle at `url` uses when it names none: the bundle's
    /// remembered ``BundleState/exportFormat``, else the user's `export.format`; a usage
    /// error when neither is set. Only reads the bundle: an export never writes to its input.
    public static func remembered(for url: URL, settings: UserSettings? = nil) throws -> ExportFormat {
        if let format = try BundleState(bundle: url).exportFormat.get() { return format }
        return try configured(settings: settings)
    }
}
