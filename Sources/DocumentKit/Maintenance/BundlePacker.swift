import Foundation

/// Writes a compact copy of a bundle: every version, object and the state, and none of
/// the bytes that saves in place left behind (FORMAT.md §1, "superseded bytes"). What
/// to send or archive: a copy whose entries lie back to back in the order the central
/// directory lists them, so that a reader walking the file from its start (a mail filter,
/// a web upload, `bsdtar -xOf -` on a pipe) meets the head's document and nothing stale.
public enum BundlePacker {
    /// What a pack wrote.
    public struct Result: Codable, Equatable, Sendable {
        public var output: String
        public var versions: Int
        public var objects: Int
        /// The copy's size.
        public var bytes: UInt64
        /// The superseded bytes of the bundle that the copy leaves out.
        public var reclaimedBytes: UInt64
    }

    /// Writes the bundle at `url`, as it is now, to `output` without superseded bytes. The
    /// bundle is only read; `output` is created whole or not at all, and replaced only when
    /// `replace`. Packing a bundle onto itself is refused: a save compacts a bundle in
    /// place when its superseded bytes pass a third of it. With `dryRun`, the same checks
    /// run and nothing is written; `bytes` is then the bundle's size less what the copy
    /// leaves out (the copy's own directory may differ from it by a few bytes).
    public static func pack(_ url: URL, to output: URL, replace: Bool, dryRun: Bool = false) throws -> Result {
        let bundle = try DocumentBundle(contentsOf: url)
        if let source = SystemCall.status(url.path), let target = SystemCall.status(output.path),
            source.st_dev == target.st_dev, source.st_ino == target.st_ino
        {
            throw DocumentKitError(.usage, "is the bundle itself; pack it to another file", path: output.relativePath)
        }
        if dryRun {
            try AtomicReplacement.refuseExisting(output, replace: replace)
            let size = SystemCall.status(url.path).map { UInt64($0.st_size) } ?? 0
            let counts = try bundle.counts()
            return Result(
                output: output.path, versions: counts.versions, objects: counts.objects.count,
                bytes: size - min(size, bundle.reclaimableBytes), reclaimedBytes: bundle.reclaimableBytes)
        }
        try DocumentKitError.located(at: url.relativePath) {
            if bundle.history != nil { return try BundleWriter.writePacked(bundle, to: output, replace: replace) }
            try BundleWriter.writeContents(
                BundleWriter.Contents(
                    mimeType: bundle.mimeType, document: try bundle.documentData(of: bundle.headVersion),
                    manifest: bundle.manifest, base: bundle),
                to: output, replace: replace)
        }
        let size = SystemCall.status(output.path).map { UInt64($0.st_size) } ?? 0
        let counts = try bundle.counts()
        return Result(
            output: output.path, versions: counts.versions, objects: counts.objects.count, bytes: size,
            reclaimedBytes: bundle.reclaimableBytes)
    }
}
