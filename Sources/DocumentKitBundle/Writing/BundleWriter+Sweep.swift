import DocumentKitArchive
import DocumentKitCore
import Foundation

extension BundleWriter {
    /// Step A5 of a save in place (FORMAT.md §8): after the save has happened, renames the
    /// local headers of the entries it superseded into `.stale/` and covers the old central
    /// directory and end records with one stored entry, so that a reader walking local
    /// headers from the start of the file meets the head's entries alone under their names.
    ///
    /// Errors are not reported: the save has happened, and must not be reported failed. A
    /// sweep that stops (an I/O error, or the process killed) leaves only bytes no entry
    /// refers to; seekable readers never see them, `docctl validate` warns
    /// (`bundle.stale-readable`), and the next save in place finishes the sweep
    /// (``finishLastSweep(before:in:path:)``).
    static func sweep(_ region: StoredZipSupersededRegion, in file: OpenFile, path: String) {
        _ = try? StoredZipSweep.sweep(region, in: file.descriptor, path: path) { try file.synchronize() }
    }

    /// Finishes the sweep of the save that wrote `base`'s central directory, if it was cut
    /// short, before this save appends: only the last save's sweep is ever looked for, so
    /// the cost stays that of one save, however long the history. Its writes are flushed
    /// with the append's. Errors are ignored, as in ``sweep(_:in:path:)``: the sweep is not
    /// what makes the save safe.
    static func finishLastSweep(before base: DocumentBundle, in file: OpenFile, path: String) {
        guard let region = try? StoredZipSweep.unfinishedRegion(before: base.zip, in: file.descriptor, path: path)
        else { return }
        sweep(region, in: file, path: path)
    }
}
