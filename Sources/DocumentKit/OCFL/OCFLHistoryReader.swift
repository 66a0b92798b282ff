import Foundation

/// The history an OCFL object of the history layout holds in its head version (FORMAT.md
/// §10): its `manifest.json`, and its segments and objects stored alone, each fetched
/// (a remote's downloaded into a scratch folder) and checked against the inventory's
/// SHA-512 the first time it is needed. Segments are fetched newest first, as far as a
/// reader asks: a pull of one version fetches the newest segment, a clone all of them.
///
/// Objects are decoded as a bundle decodes them (FORMAT.md §12.3): from the segments
/// fetched, or from `local`, a bundle of the same project that holds them, and each is
/// checked against its digest.
final class OCFLHistoryReader {
    let object: OCFLObject
    let manifest: HistoryManifest
    /// `manifest.json` as the object holds it.
    let manifestData: Data
    let mimeType: String
    /// Where fetched files go; `nil` to read them into memory (a push, which reads only
    /// the manifest and the few newest segments it merges).
    let scratch: URL?
    private let local: DocumentBundle?
    private let files: [String: String]
    /// The segments fetched, newest first, with their places.
    private(set) var segments: [(name: String, places: ClosedRange<Int>, reader: HistorySegment.Reader)] = []
    /// The files fetched into `scratch`, by logical path: a remote's are downloaded once.
    private let fetched = Protected<[String: URL]>([:])
    /// Root trees stored by place, which no index finds, by digest.
    private var placedTrees: [ObjectDigest: Data] = [:]
    /// How many segments, newest first, ``data(_:)`` has walked for trees stored by place:
    /// each is walked once, however many such trees are asked for.
    private var segmentsWalkedForTrees = 0

    /// Reads the head version's `manifest.json` and `mimetype` of `object`, checked.
    init(_ object: OCFLObject, scratch: URL?, local: DocumentBundle? = nil) throws {
        self.object = object
        self.scratch = scratch
        self.local = local
        files = object.inventory.headFiles
        let head = object.inventory.head
        // Small, read first; progress counts the segments and objects fetched after.
        (manifestData, mimeType) = try ProgressMeter.bind(nil) {
            (
                try object.file(OCFLLayout.manifestPath, in: head),
                String(decoding: try object.file(OCFLLayout.mimetypePath, in: head), as: UTF8.self)
            )
        }
        manifest = try HistoryManifest.decode(manifestData)
        for name in manifest.history where files[name] == nil {
            throw DocumentKitError(
                .malformedInput, "manifest.json names segment '\(name)', which the version lacks", location: head)
        }
    }

    /// The segments of the history, oldest first, all fetched.
    func allSegments() throws -> [(name: String, places: ClosedRange<Int>, reader: HistorySegment.Reader)] {
        while try fetchOlderSegment() {}
        return segments.reversed()
    }

    /// Fetches the newest segment not fetched yet; `false` when every one is.
    @discardableResult
    func fetchOlderSegment() throws -> Bool {
        let next = manifest.history.count - 1 - segments.count
        guard next >= 0 else { return false }
        let name = manifest.history[next]
        let data = try fetchData(name)
        let reader = try BundleHistory.inSegment(name) {
            try HistorySegment.Reader(data: data, identify: BundleVersion.id(ofSegmentRecord:))
        }
        let places = HistoryManifest.places(ofSegment: name)!
        guard reader.firstPlace == UInt64(places.lowerBound), reader.versionCount == places.count else {
            throw DocumentKitError(
                .malformedInput,
                """
                segment '\(name)' holds \(reader.versionCount) versions from place \(reader.firstPlace), not what \
                its name says
                """,
                location: object.inventory.head)
        }
        segments.append((name, places, reader))
        return true
    }

    /// A local file with the bytes of the head version's file at `logicalPath`, checked.
    func fetch(_ logicalPath: String) throws -> URL {
        guard let scratch else { preconditionFailure("a reader without a scratch folder fetches into memory") }
        if let url = fetched.value[logicalPath] { return url }
        let url = try object.contentFile(
            digest(of: logicalPath), for: logicalPath, in: object.inventory.head, scratch: scratch)
        fetched.mutate { $0[logicalPath] = url }
        return url
    }

    /// Fetches every file of the head version into `scratch`, up to `jobs` at once.
    func fetchAll(jobs: Int) throws {
        guard let scratch else { preconditionFailure("a reader without a scratch folder fetches into memory") }
        let (object, fetched) = (object, fetched)
        let head = object.inventory.head
        // The manifest and mimetype were read when the reader was made.
        let wanted = files.filter { $0.key != OCFLLayout.manifestPath && $0.key != OCFLLayout.mimetypePath }
        try TransferQueue.run(wanted.sorted { $0.key < $1.key }, jobs: jobs) { path, digest in
            let url = try object.contentFile(digest, for: path, in: head, scratch: scratch)
            fetched.mutate { $0[path] = url }
        }
    }

    /// The bytes of the head version's file at `logicalPath`, checked.
    func fetchData(_ logicalPath: String) throws -> Data {
        guard scratch != nil else {
            return try object.content(digest(of: logicalPath), for: logicalPath, in: object.inventory.head)
        }
        return try FileTree.mappedData(of: fetch(logicalPath))
    }

    private func digest(of logicalPath: String) throws -> String {
        guard let digest = files[logicalPath] else {
            throw DocumentKitError(
                .malformedInput, "the version has no \(logicalPath)", location: object.inventory.head)
        }
        return digest
    }

    /// The versions of a fetched segment, oldest first, each with its root tree's bytes
    /// when the segment stores it by place (which then becomes known to ``data(_:)``).
    func versions(inSegment index: Int) throws -> [BundleVersion] {
        let segment = segments[index]
        var versions: [BundleVersion] = []
        var before: HistorySegment.ObjectItem?
        try BundleHistory.inSegment(segment.name) {
            for item in try segment.reader.items() {
                switch item {
                case .version(_, let record):
                    let version = try BundleVersion(
                        segmentRecord: record, number: segment.places.lowerBound + versions.count)
                    if let before, before.foundByPlace, before.digest == version.tree,
                        case .identity(let bytes) = before.storage
                    {
                        placedTrees[before.digest] = bytes
                    }
                    versions.append(version)
                    before = nil
                case .object(let item):
                    before = item
                case .pruned:
                    before = nil
                }
            }
        }
        return versions
    }

    /// The bytes of object `digest`, checked: `local`'s when it holds it, else decoded from
    /// the segments, fetching older ones as far as a delta's base needs.
    func data(_ digest: ObjectDigest) throws -> Data {
        if let local, try local.hasObject(digest) { return try local.objectData(digest) }
        if let tree = placedTrees[digest] { return try checked(tree, digest) }
        while true {
            for segment in segments {
                let found = try BundleHistory.inSegment(segment.name) { try segment.reader.object(digest) }
                if let item = found { return try checked(decode(item), digest) }
            }
            guard try fetchOlderSegment() else { break }
        }
        // A root tree stored by place in an earlier version's segment, which a later version
        // names again (a restore: FORMAT.md §12.3 stores a tree the history holds once).
        // No index finds it: only walking the segments' versions does, as a bundle does.
        while segmentsWalkedForTrees < segments.count {
            _ = try versions(inSegment: segmentsWalkedForTrees)
            segmentsWalkedForTrees += 1
            if let tree = placedTrees[digest] { return try checked(tree, digest) }
        }
        throw DocumentKitError(
            .malformedInput, "object \(digest.short) is in none of the history's segments",
            location: object.inventory.head)
    }

    private func decode(_ item: HistorySegment.ObjectItem) throws -> Data {
        switch item.storage {
        case .identity(let bytes):
            return bytes
        case .delta(let base, let program):
            return try ObjectDelta.apply(program, to: data(base), expectedSize: Int(item.size))
        case .entry(let codec, _, let base):
            let stored = try fetchData(item.digest.entryName)
            switch codec {
            case .identity:
                return stored
            case .zstd:
                return try ZstdCodec.decompress(stored, maxSize: Int(item.size))
            case .delta:
                guard let base else {
                    throw DocumentKitError(.malformedInput, "object \(item.digest.short) is a delta without a base")
                }
                let program = try ZstdCodec.decompress(stored, maxSize: Int(item.size) + ObjectDelta.maxOverhead)
                return try ObjectDelta.apply(program, to: data(base), expectedSize: Int(item.size))
            }
        }
    }

    private func checked(_ data: Data, _ digest: ObjectDigest) throws -> Data {
        guard ObjectDigest.of(data) == digest else {
            throw DocumentKitError(
                .malformedInput, "object \(digest.short) does not match its digest", location: object.inventory.head)
        }
        return data
    }

    /// The head version of the history: the last version of its newest segment.
    func headVersion() throws -> BundleVersion {
        if segments.isEmpty { try fetchOlderSegment() }
        guard let head = try versions(inSegment: 0).last, head.id == manifest.head else {
            throw DocumentKitError(
                .malformedInput, "the newest segment does not end with the head manifest.json names",
                location: object.inventory.head)
        }
        return head
    }

    /// The files of `version`'s tree as logical path → digest, folders walked.
    func files(of version: BundleVersion) throws -> [(path: String, digest: ObjectDigest)] {
        var result: [(path: String, digest: ObjectDigest)] = []
        func walk(_ digest: ObjectDigest, _ prefix: String, depth: Int) throws {
            guard depth < 64 else { throw DocumentKitError(.malformedInput, "tree \(digest.short) is nested too deep") }
            for entry in try TreeObject.decode(data(digest), digest: digest).entries {
                let path = prefix.isEmpty ? entry.name : "\(prefix)/\(entry.name)"
                if entry.kind == .tree {
                    try walk(entry.digest, path, depth: depth + 1)
                } else {
                    result.append((path, entry.digest))
                }
            }
        }
        try walk(version.tree, "", depth: 0)
        return result
    }
}
