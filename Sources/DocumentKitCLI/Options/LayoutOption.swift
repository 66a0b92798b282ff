import ArgumentParser
import DocumentKit

/// `--format-version`, for commands that create a bundle: the layout to write it in.
struct LayoutOption: ParsableArguments {
    @Option(
        name: .customLong("format-version"),
        help:
            """
            The bundle layout to write: 3, whose history is in segments, or 2, which DocumentKit 0.3 and older \
            read (default: your format-version in '\(ToolSetup.name) config', else 3).
            """
    )
    var formatVersion: Int?

    func validate() throws {
        let known = [BundleManifest.currentFormatVersion, BundleManifest.wholeManifestFormatVersion]
        guard formatVersion.map(known.contains) ?? true else {
            throw ValidationError("--format-version must be \(known[0]) or \(known[1])")
        }
    }

    /// `metadata`, writing this layout if one is given (else the setting's, which `metadata` has).
    func applied(to metadata: SaveMetadata) -> SaveMetadata {
        var metadata = metadata
        if let formatVersion { metadata.formatVersion = formatVersion }
        return metadata
    }
}
