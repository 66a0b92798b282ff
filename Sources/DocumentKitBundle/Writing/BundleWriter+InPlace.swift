import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// How much of a bundle may be superseded bytes before a save rewrites it instead of
    /// appending: a third, so a bundle is never more than half again its live size.
    package static let reclaimableFraction: UInt64 = 3

    /// Saves `contents` by appending to `base`'s file in place: the new entries, a new
    /// central directory and a new end record go after the old end; every unchanged entry
    /// stays where it is. A save then costs the bytes that changed, not the bundle's size.
    ///
    /// The order makes it crash-safe (DESIGN.md, "Saving in place"): the journal naming
    /// the old end is flushed first; then everything but the new end record is written
    /// and flushed; then the end record, and a last flush. Until that record is written,
    /// readers follow the journal to the old zip, and the next writer cuts the tail off.
    /// After a failure (a full disk) the file is cut back to its old length here. Once the
    /// save has happened, the bytes it superseded are swept (FORMAT.md §8, step A5), so
    /// that streaming readers do not take them for the bundle's.
    ///
    /// Returns `false`, having written nothing, when the save should rewrite the bundle
    /// instead: the file cannot be opened for writing, is not the one `base` read, or
    /// would carry more than a third of superseded bytes.
    /// Whether ``appendInPlace(_:to:destination:)`` would append rather than ask for a
    /// rewrite, as far as it can tell without opening the file: for the total a save's
    /// progress announces, which must be the bytes of the write that happens.
    static func wouldAppendInPlace(_ contents: Contents, to base: DocumentBundle, destination: URL) -> Bool {
        guard contents.mimeType == base.mimeType, let superseded = supersededBytes(by: contents, in: base) else {
            return false
        }
        return AtomicReplacement.resolvingSymbolicLinks(destination).path
            == AtomicReplacement.resolvingSymbolicLinks(base.url).path
            && staysCompact(base, superseding: superseded)
    }

    /// Whether appending to `base` keeps at most a third of its file superseded: the
    /// bytes no entry refers to now, and the `superseded` bytes of entries the append
    /// leaves, less `reclaimed`, which are not waste (a slot the append writes into, and
    /// the slot of the document it supersedes, which the next save writes into).
    static func staysCompact(_ base: DocumentBundle, superseding superseded: UInt64, reclaiming reclaimed: UInt64 = 0)
        -> Bool
    {
        let unused = base.zip.unreferencedBytes + superseded
        return (unused > reclaimed ? unused - reclaimed : 0) * reclaimableFraction <= base.zip.length
    }

    package static func appendInPlace(_ contents: Contents, to base: DocumentBundle, destination: URL) throws -> Bool {
        guard contents.mimeType == base.mimeType, let superseded = supersededBytes(by: contents, in: base) else {
            return false
        }
        return try append(to: base, destination: destination, superseding: superseded) { zip in
            try zip.keepEntry(base.zip.entries[0])
            try writeEntries(contents, to: zip) { entry, _ in try zip.keepEntry(entry) }
        }
    }

    /// Appends to `base`'s file in place, with the journal, flushes and rollback that
    /// make it crash-safe (see ``appendInPlace(_:to:destination:)``): `write` lists every
    /// entry of the new central directory on the writer it is given, keeping the base's
    /// entries that stay (`keepEntry`) and adding new ones, in directory order.
    ///
    /// Returns `false`, having written nothing, when `superseded` (the bytes of `base`
    /// the append leaves unused) less `reclaimed` would take the file's superseded bytes
    /// past a third (``staysCompact(_:superseding:reclaiming:)``), or
    /// the file cannot be opened for writing or is not the one `base` read; and, having
    /// cut off what it wrote, when an entry it supersedes has a name too short to be
    /// renamed into `.stale/` (only an entry outside the format can).
    ///
    /// `slot`, when given, is a stretch of `base`'s file that `write` writes an entry
    /// into (``StoredZipSlot``): the journal names it, and undoing the append, here or
    /// after a kill, covers it with a room entry again.
    package static func append(
        to base: DocumentBundle, destination: URL, superseding superseded: UInt64, reclaiming reclaimed: UInt64 = 0,
        reusing slot: Range<UInt64>? = nil, _ write: (StoredZipWriter) throws -> Void
    ) throws -> Bool {
        let path = AtomicReplacement.resolvingSymbolicLinks(base.url).path
        guard AtomicReplacement.resolvingSymbolicLinks(destination).path == path,
            staysCompact(base, superseding: superseded, reclaiming: reclaimed)
        else { return false }
        // Errors name the bundle as the caller did, not the resolved path.
        let reported = destination.relativePath
        guard let file = OpenFile.forUpdating(path, name: reported),
            let opened = try? file.status(), let read = try? base.zip.fileStatus(),
            opened.st_ino == read.st_ino, opened.st_dev == read.st_dev,
            UInt64(opened.st_size) == base.zip.length
        else { return false }

        let start = base.zip.length
        let fd = file.descriptor
        finishLastSweep(before: base, in: file, path: reported)
        let journal = try AppendJournal.begin(
            bundlePath: path, fd: fd, length: start, reusing: slot, reportedPath: reported)
        // Cuts off what the append wrote and covers the slot it wrote into; the journal
        // stays when that fails, for the next writer to finish (`AppendJournal.recover`).
        func undo() {
            guard file.truncate(to: start) else { return }
            if let slot {
                do {
                    try StoredZipSlot.reclaim(slot, of: base.zip, in: fd)
                    try file.synchronize()
                } catch { return }
            }
            try? journal.finish()
        }
        var supersededEntries: [StoredZipEntry] = []
        let appended: Bool
        do {
            appended = try DocumentKitError.located(at: reported) {
                let zip = StoredZipWriter(appendingTo: fd, path: reported, at: start)
                try write(zip)
                supersededEntries = base.zip.entries.filter { !zip.keptOffsets.contains($0.localHeaderOffset) }
                // A name too short for its stale form (only an entry outside the format has
                // one) would stay readable to streaming readers: rewrite the bundle instead.
                guard supersededEntries.allSatisfy({ StoredZip.staleName(length: $0.name.utf8.count) != nil }) else {
                    return false
                }
                try zip.finish { try file.synchronize() }
                try file.synchronize()
                return true
            }
        } catch {
            // Before `start`, only bytes no entry refers to were written (the last save's
            // sweep, the slot): cutting the tail restores the old zip.
            undo()
            throw error
        }
        guard appended else {
            undo()
            return false
        }
        try DocumentKitError.located(at: reported) { try journal.finish() }
        if let written = try? file.status(), written.st_nlink == 0 {
            // Removed (its folder deleted) while the save ran: the version went with it.
            throw DocumentKitError(.cannotCreateOutput, "it was removed while it was being saved", path: reported)
        }
        sweep(
            StoredZipSupersededRegion(entries: supersededEntries, directory: base.zip.centralDirectoryOffset..<start),
            in: file, path: reported)
        return true
    }

    /// The bytes of `base` that saving `contents` in place would leave unused: the old
    /// `document.json`, manifest and central directory, and objects stored anew. `nil`
    /// when `base` lacks an entry every bundle has.
    private static func supersededBytes(by contents: Contents, in base: DocumentBundle) -> UInt64? {
        guard let document = base.zip.entry(named: BundleEntry.document),
            let manifest = base.zip.entry(named: BundleEntry.manifest),
            base.zip.entries.first?.name == BundleEntry.mimetype
        else { return nil }
        var bytes = base.zip.length - base.zip.centralDirectoryOffset
        for entry in [document, manifest] { bytes += entry.dataEnd - entry.localHeaderOffset }
        for digest in contents.newObjects.keys {
            if let entry = base.zip.entry(named: digest.entryName) { bytes += entry.dataEnd - entry.localHeaderOffset }
        }
        return bytes
    }
}
