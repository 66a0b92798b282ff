import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// The one path every change to a bundle takes: lock, re-open, check for a conflicting
/// save, write, unlock.
package enum LockedSave {
    /// Runs `makeRequest` with the bundle as it is now (or `nil` when `creating`) and
    /// writes what it returns. `expectedHead` is the head the caller's changes are based
    /// on; if the bundle's head moved since, nothing is written and `conflict` is thrown.
    package static func perform(at url: URL, expectedHead: VersionID?, creating: Bool,
                        _ makeRequest: (DocumentBundle?) throws -> BundleWriter.Request) throws -> BundleVersion? {
        if creating {
            return try BundleWriter.write(try makeRequest(nil))
        }
        return try withLockedBundle(at: url) { current in
            try checkHead(of: current, is: expectedHead, url: url)
            var request = try makeRequest(current)
            request.inPlace = request.base === current && request.replace
            return try BundleWriter.write(request)
        }
    }

    /// Runs `body` with the bundle at `url` as it is under its writer lock, after removing
    /// what killed saves left behind. Everything that rewrites a bundle goes through here.
    package static func withLockedBundle<T>(at url: URL, _ body: (DocumentBundle) throws -> T) throws -> T {
        let lock = try BundleLock.acquire(url)
        defer { withExtendedLifetime(lock) {} }
        AtomicReplacement.removeLeftovers(of: url)
        let resolved = AtomicReplacement.resolvingSymbolicLinks(url).path
        // Cut only where readers would read: at a journal whose cut is a complete zip.
        try AppendJournal.recover(bundlePath: resolved) { length in
            (try? StoredZipReader(path: resolved, length: length)) != nil
        }
        return try body(try DocumentBundle(contentsOf: url))
    }

    /// Throws `conflict` if the bundle's head is not `expectedHead` (when one is given).
    private static func checkHead(of current: DocumentBundle, is expectedHead: VersionID?, url: URL) throws {
        if let expectedHead, current.manifest.head != expectedHead {
            let opened = current.manifest.versions.first { $0.id == expectedHead }
            let now = current.headVersion
            throw DocumentKitError(.conflict,
                "changed since it was opened: opened at version \(opened.map { "\($0.number) (\($0.shortID))" } ?? String(expectedHead.prefix(12))), now at version \(now.number) (\(now.shortID)); nothing was saved",
                path: url.relativePath)
        }
    }
}
