import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// Replaces the state of `base`, opened under its writer lock, with `state` (the bytes
    /// of `state.json`, or `nil` for none), leaving every other entry as it is: no
    /// version is made, and the head, document and manifest keep their bytes.
    ///
    /// Like a save, this appends in place when it can: the bundle's entries are kept where
    /// they are, and only `state.json`, a new central directory and end record follow the
    /// old end, behind the journal (see ``appendInPlace(_:to:destination:)``). When that
    /// would take superseded bytes past a third of the file, the bundle is rewritten
    /// instead, its entries' stored bytes copied as they are, and renamed into place.
    package static func writeState(_ state: Data?, over base: DocumentBundle, destination: URL) throws {
        try AtomicReplacement.refuseReadOnly(destination)
        // Every entry but the old state, in directory order (mimetype first): the state
        // then goes last, where a bundle written in one go has it.
        let kept = base.zip.entries.filter { $0.name != BundleEntry.state }
        var superseded = base.zip.length - base.zip.centralDirectoryOffset
        if let old = base.zip.entry(named: BundleEntry.state) { superseded += old.dataEnd - old.localHeaderOffset }
        // The free slot (FORMAT.md §12.4) stays free for the next save: not waste.
        let free = UInt64((DocumentPlacement.freeSlot(of: base) ?? 0..<0).count)
        let appended = try append(to: base, destination: destination, superseding: superseded, reclaiming: free) {
            zip in
            for entry in kept { try zip.keepEntry(entry) }
            if let state { try zip.addEntry(name: BundleEntry.state, data: state) }
        }
        if appended { return }
        let output = try AtomicReplacement(destination: destination)
        let zip = StoredZipWriter(fileDescriptor: output.file.descriptor, path: output.file.path)
        try DocumentKitError.located(at: destination.relativePath) {
            for entry in kept { try zip.copyEntry(entry, from: base.zip) }
            if let state { try zip.addEntry(name: BundleEntry.state, data: state) }
            try zip.finish()
        }
        try commitReplacing(output)
    }
}
