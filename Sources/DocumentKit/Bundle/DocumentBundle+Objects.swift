import Foundation

extension DocumentBundle {
    /// The zip entry and manifest record of an object, checked to agree.
    func storedObject(_ digest: ObjectDigest) throws -> (entry: StoredZipEntry, record: ObjectRecord) {
        guard let record = manifest.objects[digest] else {
            throw DocumentKitError(.malformedInput, "object \(digest.short) is not listed in the manifest", path: url.relativePath)
        }
        guard let entry = zip.entry(named: digest.entryName) else {
            throw DocumentKitError(.malformedInput, "object \(digest.short) is missing", path: url.relativePath, location: "entry '\(digest.entryName)'")
        }
        guard entry.size == record.storedSize else {
            throw DocumentKitError(.malformedInput, "object is \(entry.size) bytes, the manifest says \(record.storedSize)", path: url.relativePath, location: "entry '\(digest.entryName)'")
        }
        return (entry, record)
    }

    /// No expansion ratio for objects: the output is bounded by the size the manifest
    /// declares, itself bounded by `maxInMemoryObjectBytes`, and a ratio would refuse
    /// objects writers rightly make (a document of repeated text compresses past 1,000:1).
    private static let objectDecodingLimits = ArchiveLimits(maxExpansionRatio: .max)

    /// An object's bytes, decoded and checked against its digest.
    public func objectData(_ digest: ObjectDigest) throws -> Data {
        let (entry, record) = try storedObject(digest)
        guard record.size <= limits.maxInMemoryObjectBytes else {
            throw DocumentKitError(.malformedInput, "object \(digest.short) is \(record.size) bytes, more than can be read into memory (\(limits.maxInMemoryObjectBytes))", path: url.relativePath)
        }
        let data = try DocumentKitError.located(at: url.relativePath) { () throws -> Data in
            let stored = try zip.readData(entry, verifyCRC: false)
            switch record.codec {
            case .identity: return stored
            case .zstd: return try ZstdCodec.decompress(stored, expectedSize: Int(record.size), limits: Self.objectDecodingLimits)
            }
        }
        try checkDigest(of: data, is: digest, entry: entry)
        return data
    }

    /// Streams an object's bytes through `body`; throws at the end if they do not match
    /// the digest, so a caller writing them out must treat what it wrote as suspect.
    public func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (entry, record) = try storedObject(digest)
        if record.codec != .identity {
            try objectData(digest).withUnsafeBytes { try body($0) }
            return
        }
        var hasher = ObjectHasher()
        try DocumentKitError.located(at: url.relativePath) {
            try zip.stream(entry, verifyCRC: false) { block in
                hasher.update(block)
                try body(block)
            }
        }
        let actual = hasher.finalize()
        guard actual == digest else {
            throw DocumentKitError(.malformedInput, "object is damaged: its SHA-256 is \(actual.short)…, expected \(digest.short)…", path: url.relativePath, location: "entry '\(entry.name)'")
        }
    }

    private func checkDigest(of data: Data, is digest: ObjectDigest, entry: StoredZipEntry) throws {
        let actual = ObjectDigest.of(data)
        guard actual == digest else {
            throw DocumentKitError(.malformedInput, "object is damaged: its SHA-256 is \(actual.short)…, expected \(digest.short)…", path: url.relativePath, location: "entry '\(entry.name)'")
        }
    }
}
