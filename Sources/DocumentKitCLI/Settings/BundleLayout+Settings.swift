import DocumentKit
import Foundation

/// The bundle layout docctl's saves write: `format-version` in `docctl config`.
public enum BundleLayoutSetting {
    /// The user's `format-version` setting, else the layout this build writes
    /// (`BundleManifest.currentFormatVersion`). A setting that cannot be read counts as
    /// unset, as for `compression`: a damaged preferences file must not stop saves.
    public static func forSaves() -> Int {
        (try? UserSettings.snapshot.get().formatVersion.get()) ?? BundleManifest.currentFormatVersion
    }
}

extension UserSettings {
    /// The layout saves write (format 3 unless set): 2 keeps new bundles, and the format-1
    /// and 2 bundles saved, readable by DocumentKit 0.3 and older; a format-3 bundle
    /// stays in format 3. `format-version` in `docctl config`.
    public var formatVersion: KeyValueContainer<Int> {
        storage.makeContainer(default: BundleManifest.currentFormatVersion)
    }
}
