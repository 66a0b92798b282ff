import Foundation

extension ValidationPass {
    /// Reports what saves in place superseded that a reader walking local headers from the
    /// start of the file (a streaming reader: `bsdtar` or `unzip` reading a pipe) would
    /// still take for the bundle's: the sweep after the save (FORMAT.md §8, step A5) was
    /// cut short. Seekable readers never see these bytes, so they are warnings: the next
    /// save in place finishes the last save's sweep, and a packed copy (``DocumentKitError/Remedy/writeCompactCopy``)
    /// holds none of them.
    package mutating func checkSupersededBytes() {
        let records: [StoredZipStaleRecord]
        do {
            records = try bundle.zip.staleRecords()
        } catch {
            return report("container.invalid", error.failureMessage)
        }
        let remedy = "the save in place after the one that left it hides it"
        for record in records {
            switch record {
            case .entry(let name, let offset):
                report(
                    "bundle.stale-readable", .warning,
                    """
                    superseded bytes at byte \(offset) hold a local header named '\(name)': streaming readers, \
                    which walk local headers from the start of the file, would read it as that entry and get stale \
                    data; \(remedy)
                    """,
                    remedy: .writeCompactCopy)
            case .directory(let offset):
                report(
                    "bundle.stale-readable", .warning,
                    """
                    superseded bytes at byte \(offset) hold an old central directory: streaming readers, which \
                    walk local headers from the start of the file, would stop there and miss the entries saved \
                    after it; \(remedy)
                    """,
                    remedy: .writeCompactCopy)
            }
        }
    }
}
