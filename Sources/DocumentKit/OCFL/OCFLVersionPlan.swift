import Crypto
import Foundation

/// The next OCFL version of an object: the object's inventory with it added, and the
/// files whose bytes the object does not hold yet, with the content path each goes to.
/// Both the archive (a local storage root) and a push (a remote) write versions from it;
/// neither reads a file's bytes into memory whole.
struct OCFLVersionPlan {
    /// A file the object lacks: where it goes, and where its bytes come from.
    struct NewContent {
        var contentPath: String
        var file: FileWrapper
        var size: UInt64
        /// What its OCFL digest is learned under until it is known: the bytes' SHA-256 when
        /// the bundle names them by it, else the file's logical path (`entry:` and the path).
        var key: String
        /// OCFL's digest, `nil` until the file is read: the inventory names the file by
        /// ``OCFLVersionPlan/pendingDigest(_:)`` until ``resolved(_:reading:)`` gives it.
        var sha512: String?
    }

    /// `vN`.
    let name: String
    /// The object's inventory once this version is in it.
    let inventory: OCFLInventory
    /// The version's files the object does not hold yet, one per digest.
    let newContent: [NewContent]

    /// Plans the version after those of `inventory` whose files are `files` and the files of
    /// `kept` (logical path → digest, files the object holds already), its version block
    /// made from `version` (its date, message and author). New files go to `vN/content/`
    /// and below it `contentFolder` when one is given.
    static func next(
        after inventory: OCFLInventory, files: [(path: String, file: FileWrapper)], kept: [String: String] = [:],
        describing version: BundleVersion, contentFolder: String?, location: String,
        digests: inout OCFLDigestIndex
    ) throws -> OCFLVersionPlan {
        var inventory = inventory
        let name = OCFLInventory.versionName(inventory.versions.count + 1)
        var state: [String: [String]] = [:]
        for (path, digest) in kept { state[digest, default: []].append(path) }
        var newContent: [NewContent] = []
        let folder = "\(name)/content/" + (contentFolder.map { "\($0)/" } ?? "")
        for (path, file) in files {
            // A bundle's object the remote lacks is hashed for OCFL as it is sent, in the one
            // read that sends it; any other file (the version's record) is in memory.
            let key: String
            let sha512: String?
            if let known = file.knownDigest?.hex {
                (key, sha512) = (known, digests.sha512(ofSHA256: known))
            } else if case .entry = file.contents {
                // A bundle's entry, as large as its blobs: hashed in the read that sends it.
                (key, sha512) = ("entry:\(path)", nil)
            } else {
                (key, sha512) = try DocumentKitError.located(at: location) { try digests.digests(of: file) }
            }
            let digest = sha512 ?? pendingDigest(key)
            state[digest, default: []].append(path)
            guard inventory.manifest[digest] == nil else { continue }
            let contentPath = folder + path
            inventory.manifest[digest] = [contentPath]
            newContent.append(
                NewContent(contentPath: contentPath, file: file, size: file.fileSize ?? 0, key: key, sha512: sha512))
        }
        inventory.versions[name] = OCFLInventory.Version(
            created: DocumentDates.format(version.created), message: version.message,
            user: user(version.author), state: state.mapValues { $0.sorted() })
        inventory.head = name
        return OCFLVersionPlan(name: name, inventory: inventory, newContent: newContent)
    }

    /// What the inventory names a file by while its SHA-512 is not known: never a SHA-512
    /// (128 hex digits), and one per key (a SHA-256, or an entry's path), so that a file
    /// sent once is listed once.
    static func pendingDigest(_ key: String) -> String {
        pendingPrefix + key
    }

    private static let pendingPrefix = "pending-"

    /// This plan with the SHA-512 of each of its files: taken from `sha512BySHA256` (by
    /// each file's key: what the reads that sent them learned, and earlier plans of the same
    /// push), or else read now (a file an interrupted push had sent already). Every pending digest of the
    /// inventory is replaced, merged with the same digest when the object held those bytes
    /// under a digest its fixity did not name; `sha512BySHA256` gains what was read.
    func resolved(_ sha512BySHA256: inout [String: String], reading digests: inout OCFLDigestIndex) throws
        -> OCFLVersionPlan
    {
        var newContent = newContent
        for index in newContent.indices where newContent[index].sha512 == nil {
            let key = newContent[index].key
            if sha512BySHA256[key] == nil {
                sha512BySHA256[key] = try digests.digests(of: newContent[index].file).sha512
            }
            newContent[index].sha512 = sha512BySHA256[key]
        }
        let pending = Self.pendingPrefix
        func resolve(_ map: [String: [String]]) -> [String: [String]] {
            var result: [String: [String]] = [:]
            for (digest, paths) in map {
                // A pending digest comes with a new file of this plan or an earlier one of the
                // same push, and each of those was resolved above, in order.
                let real = digest.hasPrefix(pending) ? sha512BySHA256[String(digest.dropFirst(pending.count))] : digest
                assert(real != nil, "an OCFL digest left pending: \(digest)")
                result[real ?? digest, default: []] += paths
            }
            return result.mapValues { $0.sorted() }
        }
        var inventory = inventory
        inventory.manifest = resolve(inventory.manifest)
        for (name, version) in inventory.versions {
            inventory.versions[name]?.state = resolve(version.state)
        }
        return OCFLVersionPlan(name: name, inventory: inventory, newContent: newContent)
    }

    /// OCFL's user: the author as name, and `mailto:` when the author ends in `<address>`.
    static func user(_ author: String) -> OCFLInventory.User {
        var address: String?
        if author.hasSuffix(">"), let open = author.lastIndex(of: "<") {
            let email = author[author.index(after: open)..<author.index(before: author.endIndex)]
            if email.contains("@"), !email.contains(" ") { address = "mailto:\(email)" }
        }
        return OCFLInventory.User(name: author, address: address)
    }
}

/// The SHA-512 (OCFL's digest) of files whose SHA-256 (the bundle's) is known: taken from an
/// inventory's `sha256` fixity, so that a file the object already holds is never read
/// again to learn it; any other file is read once, in a stream, for both.
struct OCFLDigestIndex {
    private var sha512BySHA256: [String: String] = [:]

    init(_ inventory: OCFLInventory?) {
        for (sha512, sha256) in inventory?.sha256ByDigest() ?? [:] {
            sha512BySHA256[sha256] = sha512
        }
    }

    /// The SHA-512 of the bytes whose SHA-256 is `sha256`, when it is known without reading.
    func sha512(ofSHA256 sha256: String) -> String? {
        sha512BySHA256[sha256]
    }

    /// The file's SHA-256 and SHA-512, as lowercase hex.
    mutating func digests(of file: FileWrapper) throws -> (sha256: String, sha512: String) {
        if let known = file.knownDigest?.hex, let sha512 = sha512BySHA256[known] {
            return (known, sha512)
        }
        // A bundle's file names its SHA-256 (and is checked against it as it is read):
        // only the SHA-512 is computed then.
        let known = file.knownDigest?.hex
        var sha256 = ObjectHasher()
        var sha512 = SHA512()
        try file.streamContents { block in
            if known == nil { sha256.update(block) }
            sha512.update(bufferPointer: block)
        }
        let digests = (known ?? sha256.finalize().hex, OCFLInventory.hex(sha512.finalize()))
        sha512BySHA256[digests.0] = digests.1
        return digests
    }
}
