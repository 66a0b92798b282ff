import Foundation

/// How a remote is remembered, by `clone` and by `state set` (the bundle's
/// `remote.default`).
enum RememberedRemote {
    /// The remote `text` as remembered: as written for `s3://`, as an absolute path for a
    /// folder (relative to the working folder when given), so that it names the same folder
    /// from anywhere.
    @Sendable static func form(_ text: String) -> String {
        text.hasPrefix("s3://") ? text : URL(fileURLWithPath: text).standardizedFileURL.path
    }
}
