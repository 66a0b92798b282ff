import DocumentKit
import Foundation

extension UserSettings {
    /// The layout saves write (format 3 unless set): 2 keeps new bundles, and the format-1
    /// and 2 bundles saved, readable by DocumentKit 0.3 and older; a format-3 bundle
    /// stays in format 3. `format-version` in `docctl config`.
    public var formatVersion: KeyValueContainer<Int> {
        storage.makeContainer(default: BundleManifest.currentFormatVersion)
    }
}
