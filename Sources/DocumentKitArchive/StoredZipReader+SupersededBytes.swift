import DocumentKitCore

extension StoredZipReader {
    /// What a reader walking local headers from the start of the file (a streaming reader)
    /// would meet in the bytes no entry of the central directory uses, and take for the
    /// live zip: superseded entries whose local headers were not renamed, and superseded
    /// central directories that were not covered (see ``StoredZipSweep``). Only what a
    /// save in place left that its sweep did not finish.
    ///
    /// Walks each stretch between entries (and before the central directory) from header
    /// to header as such a reader would, and stops in a stretch at the first bytes that are
    /// no local header (such a reader fails there). One or two reads per superseded entry:
    /// for validation, not for every open.
    package func staleRecords() throws -> [StoredZipStaleRecord] {
        var found: [StoredZipStaleRecord] = []
        for gap in unusedStretches() {
            var offset = gap.lowerBound
            while gap.upperBound - offset >= 4 {
                let signature = ByteCursor.uint32(
                    try POSIXFile.read(fileDescriptor, count: 4, at: offset, path: path), at: 0)
                if signature == StoredZip.centralHeaderSignature {
                    found.append(.directory(offset: offset))
                    break
                }
                guard
                    let header = try StoredZipLocalHeader.read(
                        from: fileDescriptor, at: offset, limit: gap.upperBound, path: path)
                else { break }
                if !StoredZip.isStale(header.name) {
                    found.append(.entry(name: String(decoding: header.name, as: UTF8.self), offset: offset))
                }
                offset = header.end
            }
        }
        return found
    }

    /// The stretches of the file before the central directory that no entry's header or
    /// data covers, in file order.
    private func unusedStretches() -> [Range<UInt64>] {
        var stretches: [Range<UInt64>] = []
        var position: UInt64 = 0
        for entry in entries.sorted(by: { $0.localHeaderOffset < $1.localHeaderOffset }) {
            if entry.localHeaderOffset > position { stretches.append(position..<entry.localHeaderOffset) }
            position = max(position, entry.dataEnd)
        }
        if centralDirectoryOffset > position { stretches.append(position..<centralDirectoryOffset) }
        return stretches
    }
}
