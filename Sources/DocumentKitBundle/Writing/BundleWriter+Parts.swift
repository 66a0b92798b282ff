import DocumentKitArchive
import DocumentKitCore
import Foundation

extension BundleWriter {
    /// Writes a format-3 bundle from the parts its entries store, as they are (FORMAT.md
    /// §12.1): `mimetype`, `document.json`, the objects stored alone and the history
    /// segments (`parts`, by entry name, streamed from where they are), then `manifest`.
    /// What a clone of a remote in the history layout writes: the remote's files are the
    /// bundle's entries. The file is complete but not in place: the caller checks it (at
    /// ``PendingBundle/temporaryURL``), having let go of what it held to write it, and
    /// commits it; one not committed leaves nothing behind.
    package static func writeParts(
        mimeType: String, document: Data, parts: [(name: String, file: FileWrapper)], manifest: Data,
        to destination: URL
    ) throws -> PendingBundle {
        let output = try AtomicReplacement(destination: destination)
        let zip = StoredZipWriter(fileDescriptor: output.file.descriptor, path: destination.relativePath)
        let total = parts.reduce(UInt64(document.count + manifest.count)) { $0 + ($1.file.fileSize ?? 0) }
        try ProgressMeter.phase(.writing, counting: .written, totalBytes: total) {
            try DocumentKitError.located(at: destination.relativePath) {
                try zip.addEntry(name: BundleEntry.mimetype, data: Data(mimeType.utf8))
                try zip.addEntry(name: BundleEntry.document, data: document)
                for (name, file) in parts {
                    try zip.addEntry(name: name, size: file.fileSize ?? 0) { sink in
                        try file.streamContents { try sink.write($0) }
                    }
                }
                try zip.addEntry(name: BundleEntry.manifest, data: manifest)
                try zip.finish()
            }
        }
        return PendingBundle(output: output)
    }

    /// A bundle written whole beside its destination, not yet in place.
    package struct PendingBundle {
        let output: AtomicReplacement

        /// Where it is until it is committed.
        package var temporaryURL: URL { output.temporaryURL }

        /// Moves it into place: over the file there only when `replace`.
        package func commit(replace: Bool) throws {
            if replace {
                try BundleWriter.commitReplacing(output)
            } else {
                try output.commitWithoutReplacing(mode: AtomicReplacement.defaultMode())
            }
        }
    }
}
