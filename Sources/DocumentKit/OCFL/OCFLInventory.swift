import Crypto
import Foundation

/// An OCFL 1.1 inventory (`inventory.json`, https://ocfl.io/1.1/spec/#inventory): the
/// object's id, its versions' states, and where each file's bytes are stored.
public struct OCFLInventory: Codable, Sendable, Equatable {
    /// The object's id: `documentkit:` and the id of the project's first version (FORMAT.md §10).
    public var id: String
    /// Always ``OCFLInventory/inventoryType``.
    public var type: String
    /// Always `sha512`: the digest that names content in `manifest` and `state`.
    public var digestAlgorithm: String
    /// The newest version's name, `v1`, `v2`, …
    public var head: String
    /// Content digest → the content paths (`vN/content/…`) holding those bytes: one each here.
    public var manifest: [String: [String]]
    /// Version name → the version.
    public var versions: [String: Version]
    /// Other digests of the content: algorithm → digest → content paths. DocumentKit
    /// records `sha256`, the digest that names a bundle's objects.
    public var fixity: [String: [String: [String]]]?

    /// One OCFL version.
    public struct Version: Codable, Sendable, Equatable {
        /// RFC 3339.
        public var created: String
        public var message: String?
        public var user: User?
        /// Content digest → the logical paths (the version's files) with those bytes.
        public var state: [String: [String]]
    }

    /// Who made a version.
    public struct User: Codable, Sendable, Equatable {
        public var name: String
        /// A URI: `mailto:` and the e-mail address, when the author names one.
        public var address: String?
    }

    public static let inventoryType = "https://ocfl.io/1.1/spec/#inventory"
    public static let digestAlgorithm = "sha512"

    /// An inventory of no version yet.
    init(id: String) {
        self.id = id
        type = Self.inventoryType
        digestAlgorithm = Self.digestAlgorithm
        head = ""
        manifest = [:]
        versions = [:]
        fixity = nil
    }

    /// `vN`.
    static func versionName(_ number: Int) -> String { "v\(number)" }

    /// The number of a version name, `nil` when it is not `v` and a number without zero-padding.
    static func versionNumber(_ name: String) -> Int? {
        guard name.hasPrefix("v"), let number = Int(name.dropFirst()), number > 0, name == versionName(number) else {
            return nil
        }
        return number
    }

    /// The version names from `v1` to the head, in order.
    var versionNames: [String] {
        guard let last = Self.versionNumber(head) else { return [] }
        return (1...last).map(Self.versionName)
    }

    /// The SHA-256 the `sha256` fixity records for each SHA-512 digest of the manifest:
    /// how a file's two digests are known without reading it.
    func sha256ByDigest() -> [String: String] {
        var digestByContentPath: [String: String] = [:]
        for (digest, paths) in manifest {
            for path in paths { digestByContentPath[path] = digest }
        }
        var result: [String: String] = [:]
        for (sha256, paths) in fixity?["sha256"] ?? [:] {
            for path in paths { if let digest = digestByContentPath[path] { result[digest] = sha256 } }
        }
        return result
    }

    /// The inventory as it was when `name` was its head: the versions up to it, and the
    /// content they added (content paths start with their version's name).
    func truncated(to name: String) -> OCFLInventory {
        guard let last = Self.versionNumber(name) else { return self }
        func kept(_ path: String) -> Bool {
            path.split(separator: "/", maxSplits: 1).first.flatMap { Self.versionNumber(String($0)) }.map { $0 <= last }
                ?? false
        }
        var result = self
        result.head = name
        result.versions = versions.filter { (Self.versionNumber($0.key) ?? .max) <= last }
        result.manifest = manifest.compactMapValues { paths in
            let paths = paths.filter(kept)
            return paths.isEmpty ? nil : paths
        }
        result.fixity = fixity?.mapValues { digests in
            digests.compactMapValues { paths in
                let paths = paths.filter(kept)
                return paths.isEmpty ? nil : paths
            }
        }
        return result
    }

    /// The inventory's bytes: compact JSON with keys sorted, and a final newline. Compact,
    /// since every push writes it whole and it lists every version's files: indentation
    /// made it a sixth larger.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The sidecar `inventory.json.sha512`: the inventory's digest, a space, its name.
    static func sidecar(for inventory: Data) -> Data {
        Data("\(sha512(inventory)) inventory.json\n".utf8)
    }

    /// The SHA-512 of `data`, as 128 lowercase hex digits.
    static func sha512(_ data: Data) -> String {
        hex(SHA512.hash(data: data))
    }

    /// A digest as lowercase hex.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        HexText.lowercase(digest)
    }

    /// The SHA-512 of the file at `url`, read in a stream.
    static func sha512(ofFile url: URL) throws -> String {
        var hasher = SHA512()
        try OpenFile.forReading(url.path).stream { hasher.update(bufferPointer: $0) }
        return hex(hasher.finalize())
    }
}
