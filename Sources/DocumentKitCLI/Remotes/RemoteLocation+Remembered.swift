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
                    remember another with '\(ToolSetup.name) state set \(url.relativePath) remote.default \
                    REMOTE'
                    """,
                    path: url.relativePath)
            }
            return remote
        }
        throw DocumentKitError(
            .usage,
            """
            no remote given, and none remembered for it: name one, or remember one with '\(ToolSetup.name) \
            state set \(url.relativePath) remote.default REMOTE'
            """,
            path: url.relativePath)
    }

    /// Makes the bundle at `url` remember the remote `text` (``RememberedRemote/form(_:)``).
    static func remember(_ text: String, for url: URL) throws {
        try BundleState(bundle: url).defaultRemote.set(RememberedRemote.form(text))
    }

}
