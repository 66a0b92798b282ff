import DocumentKit
import Foundation

extension BundleState {
    /// The remote `push` and `pull` use when given none: `remote.default` in `docctl
    /// state`, as `clone` sets it to the remote the bundle came from (git's `origin`).
    public var defaultRemote: KeyValueContainer<String> { storage.makeContainer() }
}

extension RemoteLocation {
    /// `given` when the user named a remote, else the bundle at `url`'s remembered
    /// ``BundleState/defaultRemote``; a usage error saying how to name one when neither.
    static func remembered(_ given: String, for url: URL) throws -> String {
        if !given.isEmpty { return given }
        if let remote = try BundleState(bundle: url).defaultRemote.get() {
            // The state travels with the bundle (pack keeps it): a folder remembered on
            // another machine is refused rather than made here, as a named one would be.
            guard remote.hasPrefix("s3://") || FileTree.isFolder(remote) else {
                throw DocumentKitError(
                    .usage,
                    """
                    its remembered remote \(remote) (remote.default) is not a folder here: name the remote, or \
                    remember another with '\(DocumentTool.name) state set \(url.relativePath) remote.default \
                    REMOTE'
                    """,
                    path: url.relativePath)
            }
            return remote
        }
        throw DocumentKitError(
            .usage,
            """
            no remote given, and none remembered for it: name one, or remember one with '\(DocumentTool.name) \
            state set \(url.relativePath) remote.default REMOTE'
            """,
            path: url.relativePath)
    }

    /// Makes the bundle at `url` remember the remote `text` (``rememberedForm(_:)``).
    static func remember(_ text: String, for url: URL) throws {
        try BundleState(bundle: url).defaultRemote.set(rememberedForm(text))
    }

    /// How a remote is remembered, by `clone` and by `state set`: as written for `s3://`, as
    /// an absolute path for a folder (relative to the working folder when given), so that it
    /// names the same folder from anywhere.
    @Sendable static func rememberedForm(_ text: String) -> String {
        text.hasPrefix("s3://") ? text : URL(fileURLWithPath: text).standardizedFileURL.path
    }
}
