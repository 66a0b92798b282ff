import ArgumentParser
import DocumentKit

/// `--format-version`, for commands that create a bundle: the layout to write it in.
struct LayoutOption: ParsableArguments {
    @Option(name: .customLong("format-version"),
            help: "The bundle layout to write: 2 (the default) or 3, whose history is in segments (docs/format-3.md).")
    var formatVersion: Int = BundleManifest.currentFormatVersion

    func validate() throws {
        guard [BundleManifest.currentFormatVersion, BundleManifest.newestReadableFormatVersion].contains(formatVersion) else {
            throw ValidationError("--format-version must be \(BundleManifest.currentFormatVersion) or \(BundleManifest.newestReadableFormatVersion)")
        }
    }

    /// `metadata`, writing this layout.
    func applied(to metadata: SaveMetadata) -> SaveMetadata {
        var metadata = metadata
        metadata.formatVersion = formatVersion
        return metadata
    }
}
