import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The record of object `digest`, or `nil` when the bundle does not store it: from the
    /// manifest, or a format-3 bundle's segment indexes (and the root trees met so far).
    package func objectRecord(_ digest: ObjectDigest) throws -> ObjectRecord? {
        guard history != nil else { return decodedManifest.objects[digest] }
        return try historyObject(digest)?.record
    }

    /// Whether the bundle stores object `digest`.
    package func hasObject(_ digest: ObjectDigest) throws -> Bool {
        try objectRecord(digest) != nil
    }

    /// A format-3 bundle's item for `digest`: a root tree met while reading its version,
    /// or what a segment's index finds.
    private func historyObject(_ digest: ObjectDigest) throws -> HistorySegment.ObjectItem? {
        try historyObject(digest, searchingFrom: nil)?.item
    }

    /// ``historyObject(_:)``, the segments searched from `start` (newest first when `nil`),
    /// with the index of the segment that holds the item (`nil` for a root tree).
    private func historyObject(_ digest: ObjectDigest, searchingFrom start: Int?) throws
        -> (item: HistorySegment.ObjectItem, segment: Int?)?
    {
        if let placed = placedObjects.value[digest] { return (placed, nil) }
        return try DocumentKitError.located(at: url.relativePath) {
            let history = history!
            return try history.object(digest, searchingFrom: start ?? history.segments.count - 1).map {
                ($0.item, $0.segment)
            }
        }
    }

    /// Where object `digest` is stored, and its record, checked to agree.
    package func storedObject(_ digest: ObjectDigest) throws -> StoredObject {
        try storedObject(digest, searchingFrom: nil)
    }

    /// ``storedObject(_:)``, a format-3 history's segments searched from `start`
    /// (``BundleHistory/object(_:searchingFrom:)``): a delta's base from its delta's segment.
    private func storedObject(_ digest: ObjectDigest, searchingFrom start: Int?) throws -> StoredObject {
        guard history != nil else {
            guard let record = decodedManifest.objects[digest] else {
                throw DocumentKitError(
                    .malformedInput, "object \(digest.short) is not listed in the manifest", path: url.relativePath)
            }
            return StoredObject(record: record, location: .entry(try objectEntry(digest, record)))
        }
        var found = try historyObject(digest, searchingFrom: start)
        if found == nil {
            // A root tree stored by place, of a version not read yet: listing the history
            // meets every one.
            _ = try manifest
            found = placedObjects.value[digest].map { ($0, nil) }
        }
        guard let (item, segment) = found else {
            throw DocumentKitError(
                .malformedInput, "object \(digest.short) is in none of the history's segments", path: url.relativePath)
        }
        let location: StoredObject.Location
        switch item.storage {
        case .identity(let data): location = .item(data)
        case .delta(_, let program): location = .item(program)
        case .entry: location = .entry(try objectEntry(digest, item.record))
        }
        return StoredObject(record: item.record, location: location, segment: segment)
    }

    /// The entry `objects/…` of an object stored alone, checked against its record.
    private func objectEntry(_ digest: ObjectDigest, _ record: ObjectRecord) throws -> StoredZipEntry {
        guard let entry = zip.entry(named: digest.entryName) else {
            throw DocumentKitError(
                .malformedInput, "object \(digest.short) is missing", path: url.relativePath,
                location: "entry '\(digest.entryName)'")
        }
        guard entry.size == record.storedSize else {
            throw DocumentKitError(
                .malformedInput, "object is \(entry.size) bytes, the manifest says \(record.storedSize)",
                path: url.relativePath, location: "entry '\(digest.entryName)'")
        }
        // Readers size their output by `size`: an identity object whose stored bytes are
        // more or fewer would be cut short or overrun by whoever trusts it.
        guard record.codec != .identity || record.size == record.storedSize else {
            throw DocumentKitError(
                .malformedInput,
                """
                object is stored as is, but the manifest gives it \(record.size) bytes and \(record.storedSize) \
                stored
                """,
                path: url.relativePath, location: "entry '\(digest.entryName)'")
        }
        return entry
    }

    /// No expansion ratio for objects: the output is bounded by the size the manifest
    /// declares, itself bounded by `maxInMemoryObjectBytes`, and a ratio would refuse
    /// objects writers rightly make (a document of repeated text compresses past 1,000:1).
    private static let objectDecodingLimits = ArchiveLimits(maxExpansionRatio: .max)

    /// An object's bytes, decoded and checked against its digest.
    ///
    /// A `delta` object is rebuilt from its base, which may be a delta too: the chain is
    /// followed to an object stored whole, its programs are folded into one, and that one
    /// is run on the whole object, so the bytes are copied once however long the chain.
    /// Only the result is hashed; `validateObject(_:base:)` checks each link.
    public func objectData(_ digest: ObjectDigest) throws -> Data {
        try objectData(digest, reaching: nil)
    }

    /// An object's bytes, as ``objectData(_:)`` gives them, for a delta whose base is the
    /// document `forward` (programs, oldest first) leads from to `held`: its program moved
    /// onto `held`'s bytes and run there (``DeltaInstructions/rebased(onto:)``), so that its
    /// base, which only its chain rebuilds from the object stored whole, is not rebuilt. A
    /// pull checks the other copy's new document at a 16th place, a delta against the
    /// document 16 places back (FORMAT.md §12.3), so. `nil` when the program takes bytes
    /// of its base that `held` no longer holds.
    package func objectData(
        _ digest: ObjectDigest, rebasedOnto held: HeldObject, through forward: [DeltaInstructions]
    ) throws -> Data? {
        guard !forward.isEmpty,
            let program = try deltaInstructions(digest).rebased(onto: DeltaInstructions.folded(forward))
        else { return nil }
        let data = try DocumentKitError.located(at: url.relativePath) { try program.apply(to: held.data) }
        try checkDigest(of: data, is: digest)
        return data
    }

    /// An object's bytes, as ``objectData(_:)`` gives them, from a chain that stops at
    /// `held` when it reaches it: an object whose bytes the caller holds, checked against
    /// its digest. A pull checks the other copy's new document, a delta against the
    /// document this copy's head holds whole, from those bytes, not from the 25 links or so
    /// that lead there from the object stored whole (FORMAT.md §12.3).
    ///
    /// `place` is that of a version whose save stored the object, or a later one: in a
    /// format-3 history, the segment holding it is searched first (a version's document
    /// is stored by its save, or was before).
    package func objectData(_ digest: ObjectDigest, reaching held: HeldObject?, storedBy place: Int? = nil) throws
        -> Data
    {
        let start = place.flatMap { history?.segmentIndex(holding: $0) }
        // Each link is looked up once (its item's block decoded once), its program read
        // from what the walk found: a chain of 60 links reads 60 items, not 180.
        var links: [(digest: ObjectDigest, stored: StoredObject, baseSize: UInt64)] = []
        var seen: Set<ObjectDigest> = [digest]
        var current = (digest: digest, stored: try storedObject(digest, searchingFrom: start))
        var root: Data?
        while current.stored.record.codec == .delta {
            let record = current.stored.record
            if let held, record.base == held.digest {
                root = held.data
                links.append((current.digest, current.stored, UInt64(held.data.count)))
                break
            }
            guard let base = record.base else {
                throw DocumentKitError(
                    .malformedInput, "object \(current.digest.short) is a delta without a base", path: url.relativePath)
            }
            guard seen.insert(base).inserted else {
                throw DocumentKitError(
                    .malformedInput, "object \(digest.short)'s delta chain loops back to \(base.short)",
                    path: url.relativePath)
            }
            let baseStored = try storedObject(base, searchingFrom: current.stored.segment)
            links.append((current.digest, current.stored, baseStored.record.size))
            current = (base, baseStored)
        }
        guard !links.isEmpty else {
            let data = try root ?? decodeObject(current.digest, base: nil)
            try checkDigest(of: data, is: digest)
            return data
        }
        // A large document stored whole is read on another thread while the chain's programs
        // are read and folded: at 60 links from it, each takes about a third of the time. A
        // small one is read here, after, rather than start a thread for it.
        let chainRoot = current.digest
        let reading =
            root == nil && current.stored.record.size >= Self.rootReadApart
            ? BackgroundWork { try self.decodeObject(chainRoot, base: nil) } : nil
        let program = DeltaInstructions.folded(
            try links.reversed().map { try deltaInstructions($0.digest, stored: $0.stored, baseSize: $0.baseSize) })
        let whole = try root ?? reading?.result() ?? decodeObject(chainRoot, base: nil)
        let data = try DocumentKitError.located(at: url.relativePath) { try program.apply(to: whole) }
        try checkDigest(of: data, is: digest)
        return data
    }

    /// The size from which a delta chain's root is read on a thread of its own.
    private static let rootReadApart: UInt64 = 1 << 20

    /// Decodes one object from its stored bytes, given its base's bytes if it is a delta;
    /// the result is not checked against the digest.
    package func decodeObject(_ digest: ObjectDigest, base: Data?) throws -> Data {
        let stored = try storedObject(digest)
        let record = stored.record
        try refuseOversized(digest, record)
        guard case .entry(let entry) = stored.location else {
            guard case .item(let bytes) = stored.location, record.codec == .delta else {
                if case .item(let bytes) = stored.location { return bytes }
                preconditionFailure("an object is in an entry or an item")
            }
            // Without its base (a caller that took the record of another copy), through its chain.
            guard let base else { return try objectData(digest) }
            return try DocumentKitError.located(at: url.relativePath) {
                try ObjectDelta.apply(bytes, to: base, expectedSize: Int(record.size))
            }
        }
        return try inEntry(entry) {
            let stored = try zip.readData(entry, verifyCRC: false)
            switch record.codec {
            case .identity:
                return stored
            case .zstd:
                return try ZstdCodec.decompress(
                    stored, expectedSize: Int(record.size), limits: Self.objectDecodingLimits)
            case .delta:
                guard let base else { return try objectData(digest) }
                let program = try ZstdCodec.decompress(stored, maxSize: Int(record.size) + ObjectDelta.maxOverhead)
                return try ObjectDelta.apply(program, to: base, expectedSize: Int(record.size))
            }
        }
    }

    /// Runs `body`, which reads `entry`, with its errors located at the bundle and the entry.
    private func inEntry<T>(_ entry: StoredZipEntry, _ body: () throws -> T) throws -> T {
        try DocumentKitError.located(at: url.relativePath) {
            do {
                return try body()
            } catch let error as DocumentKitError {
                throw DocumentKitError(error.code, error.message, location: "entry '\(entry.name)'")
            } catch {
                throw error.addingArchiveContext(entry: entry.name)
            }
        }
    }

    /// The program of the delta object `digest`, read and checked against its record's
    /// size and its base's.
    private func deltaInstructions(_ digest: ObjectDigest) throws -> DeltaInstructions {
        let stored = try storedObject(digest)
        guard let base = stored.record.base else {
            throw DocumentKitError(
                .malformedInput, "object \(digest.short) is a delta without a base", path: url.relativePath)
        }
        return try deltaInstructions(digest, stored: stored, baseSize: try storedObject(base).record.size)
    }

    /// The program of the delta object `digest`, stored as `stored`, whose base is
    /// `baseSize` bytes, read and checked against both sizes.
    private func deltaInstructions(_ digest: ObjectDigest, stored: StoredObject, baseSize: UInt64) throws
        -> DeltaInstructions
    {
        let record = stored.record
        try refuseOversized(digest, record)
        guard case .entry(let entry) = stored.location else {
            guard case .item(let program) = stored.location else {
                preconditionFailure("an object is in an entry or an item")
            }
            return try DocumentKitError.located(at: url.relativePath) {
                try DeltaInstructions(program: program, baseSize: Int(baseSize), expectedSize: Int(record.size))
            }
        }
        return try inEntry(entry) {
            let program = try ZstdCodec.decompress(
                try zip.readData(entry, verifyCRC: false), maxSize: Int(record.size) + ObjectDelta.maxOverhead)
            return try DeltaInstructions(program: program, baseSize: Int(baseSize), expectedSize: Int(record.size))
        }
    }

    /// The delta program of object `digest`, not compressed: what a segment's item holds,
    /// or what its entry decodes to, checked against the entry's CRC-32 (the program can
    /// only be checked against the digest once run on its base).
    package func deltaProgram(_ digest: ObjectDigest) throws -> Data {
        let stored = try storedObject(digest)
        precondition(stored.record.codec == .delta, "only a delta object has a program")
        switch stored.location {
        case .item(let program):
            return program
        case .entry(let entry):
            return try inEntry(entry) {
                try ZstdCodec.decompress(
                    try zip.readData(entry, verifyCRC: true), maxSize: Int(stored.record.size) + ObjectDelta.maxOverhead
                )
            }
        }
    }

    /// The programs that rebuild object `digest` from object `ancestor`, oldest first: the
    /// links of `digest`'s delta chain down to `ancestor`; `nil` when the chain does not
    /// pass through it within `limit` links. Reads the programs, never the documents.
    package func deltaChain(from digest: ObjectDigest, to ancestor: ObjectDigest, limit: Int = 256) throws
        -> [DeltaInstructions]?
    {
        var links: [DeltaInstructions] = []
        var current = digest
        while current != ancestor {
            guard links.count < limit, let record = try objectRecord(current), record.codec == .delta,
                record.base != nil
            else { return nil }
            links.append(try deltaInstructions(current))
            current = record.base!
        }
        return links.reversed()
    }

    /// Refuses to decode an object larger than the limit for one held in memory: a
    /// compressed object's declared size is checked before any byte is decoded, streamed or not.
    private func refuseOversized(_ digest: ObjectDigest, _ record: ObjectRecord) throws {
        guard record.size <= limits.maxInMemoryObjectBytes else {
            throw DocumentKitError(
                .malformedInput,
                """
                object \(digest.short) is \(record.size) bytes, more than can be read into memory \
                (\(limits.maxInMemoryObjectBytes))
                """,
                path: url.relativePath)
        }
    }

    /// Decodes one object, given its base's bytes if it is a delta, and checks its digest:
    /// how a validator checks every link of a delta chain once.
    package func validateObject(_ digest: ObjectDigest, base: Data?) throws -> Data {
        let data = try decodeObject(digest, base: base)
        try checkDigest(of: data, is: digest)
        return data
    }

    /// Streams an object's bytes through `body`; throws at the end if they do not match
    /// the digest, so a caller writing them out must treat what it wrote as suspect (and
    /// not commit it). A caller that cannot take back what it was given uses
    /// ``streamCheckedObject(_:_:)``.
    public func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stored = try storedObject(digest)
        let record = stored.record
        guard record.codec != .delta, case .entry(let entry) = stored.location else {
            try objectData(digest).withUnsafeBytes { try body($0) }
            return
        }
        var hasher = ObjectHasher()
        func pass(_ block: UnsafeRawBufferPointer) throws {
            hasher.update(block)
            do {
                try body(block)
            } catch let error as ArchiveError {
                // The consumer's own failure (writing an export, say) names its file:
                // made a DocumentKitError here, it keeps that name, not this bundle's.
                throw DocumentKitError(error)
            } catch let error as SystemError {
                throw DocumentKitError(error)
            }
        }
        if record.codec == .zstd { try refuseOversized(digest, record) }
        try DocumentKitError.located(at: url.relativePath) {
            guard record.codec == .zstd else { return try zip.stream(entry, verifyCRC: false, pass) }
            // Decoded in blocks, never whole: a push sends several such objects at once.
            let stored = try zip.readData(entry, verifyCRC: false)
            do {
                try ZstdCodec.decompress(
                    stored, expectedSize: Int(record.size), limits: Self.objectDecodingLimits, into: pass)
            } catch {
                throw error.addingArchiveContext(entry: entry.name)
            }
        }
        try checkDigest(hasher.finalize(), is: digest)
    }

    /// Streams an object's bytes through `body` only once all of them are known to match
    /// its digest: for a consumer that cannot take back what it was given, such as
    /// standard output. An object stored as is is read twice, first to hash it, so that it
    /// is never held in memory whole; any other is decoded and checked in memory first.
    public func streamCheckedObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stored = try storedObject(digest)
        if stored.record.codec == .identity, let entry = stored.entry {
            var hasher = ObjectHasher()
            try DocumentKitError.located(at: url.relativePath) {
                try zip.stream(entry, verifyCRC: false) { hasher.update($0) }
            }
            try checkDigest(hasher.finalize(), is: digest)
        }
        // Hashed again as it goes out: bytes changed in place since the first pass (by no
        // DocumentKit writer, which never writes below a bundle's end) still end in an error.
        try streamObject(digest, body)
    }

    private func checkDigest(of data: Data, is digest: ObjectDigest) throws {
        try checkDigest(ObjectDigest.of(data), is: digest)
    }

    private func checkDigest(_ actual: ObjectDigest, is digest: ObjectDigest) throws {
        guard actual == digest else {
            throw DocumentKitError(
                .malformedInput, "object is damaged: its SHA-256 is \(actual.short)…, expected \(digest.short)…",
                path: url.relativePath, location: objectLocation(digest))
        }
    }

    /// Where object `digest` is, for messages: its entry, or (format 3) the history.
    package func objectLocation(_ digest: ObjectDigest) -> String {
        (try? storedObject(digest).entry).flatMap { $0 }.map { "entry '\($0.name)'" }
            ?? "object \(digest.short) in the history"
    }
}
