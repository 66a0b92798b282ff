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
