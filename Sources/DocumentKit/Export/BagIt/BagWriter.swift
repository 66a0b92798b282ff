import Crypto
import Foundation

/// Writes versions of a bundle as a BagIt bag (RFC 8493; FORMAT.md §7, "Exports"): the
/// files of a version as the payload (or of every version, each distinct file once:
/// ``historyContents(_:of:)``), SHA-256 and SHA-512 manifests and tag manifests,
/// `bag-info.txt` naming the project and versions, and `documentkit/versions.json` (with
/// every version's record, for a bag of every version). The bag is written as a folder
/// export is, in a staging folder that appears in one rename (``ExportedFolder``).
package enum BagWriter {
    /// Where a bag keeps its access copy (`export --format bagit --with-html`).
    package static let accessFolder = "data/access"

    /// Writes a bag of `versions` (oldest first; one version, or every version when
    /// `allVersions`) of `bundle` to the folder `output`, with `accessCopy` (an HTML site's
    /// files, ``HTMLSite``) under `data/access/` when given. Returns the payload's file count
    /// and bytes.
    package static func write(
        _ versions: [BundleVersion], allVersions: Bool, of bundle: DocumentBundle, to output: URL,
        replace: Bool, accessCopy: [ExportedFile]? = nil
    ) throws -> (files: Int, bytes: UInt64) {
        var (payload, records) = try contents(versions, allVersions: allVersions, of: bundle)
        if let accessCopy {
            // After the version's files, which hold no `access` folder: a tree's top level
            // is `document.json` and `blobs/` (a bag of every version: `blobs/`, `versions/`).
            payload.append(ExportedFile(path: accessFolder, node: nil))
            payload += accessCopy.map { ExportedFile(path: "\(accessFolder)/\($0.path)", node: $0.node) }
        }
        let newest = versions.last!
        let document = payload.first {
            $0.path == records.last!.files?[VersionLayout.documentName]
                ?? "\(records.last!.path)/\(VersionLayout.documentName)"
        }?.node
        let hashes = PayloadHashes(paths: payload.filter { $0.node != nil }.map(\.path))
        let totalBytes = payload.reduce(0) { $0 + ($1.node?.fileSize ?? 0) }
        return try ProgressMeter.phase(.writing, counting: .written, totalBytes: totalBytes) {
            // What the folder export counts includes the tag files; the result is the payload's.
            _ = try ExportedFolder.write(payload, to: output, replace: replace, observing: hashes.update) {
                let info = BagInfo(
                    agent: DocumentKitInfo.writer, date: DocumentDates.now(), contentType: bundle.contentTypeIdentifier,
                    projectName: projectName(document: document, bundle: bundle.url), newest: newest,
                    versionCount: versions.count, payloadBytes: hashes.bytes, payloadFiles: hashes.count,
                    accessCopy: accessCopy == nil ? nil : "\(accessFolder)/\(HTMLSite.entryPage)")
                return try tagFiles(payload: hashes, info: info, versions: records, of: bundle)
            }
            return (hashes.count, hashes.bytes)
        }
    }

    /// The payload files of a bag of `versions` (folders before their contents, sorted by
    /// path) and what `documentkit/versions.json` says of each version: a version's files
    /// under `data/`, or, for a bag of every version, each distinct file once
    /// (``historyContents(_:of:)``).
    package static func contents(_ versions: [BundleVersion], allVersions: Bool, of bundle: DocumentBundle) throws -> (
        payload: [ExportedFile], records: [VersionRecord]
    ) {
        if allVersions { return try historyContents(versions, of: bundle) }
        // RFC 8493 writes `%` in a manifest as `%25`; bagit-python (LibraryOfCongress/
        // bagit-python#157) and other tools do not decode it. Blobs named with a `%` go
        // under their digests, so the two readings agree on every path of the bag.
        let files = try ExportedFile.list(version: versions[0], of: bundle, excludingNamesWith: ["%"])
        return (
            [ExportedFile(path: "data", node: nil)]
                + files.map { ExportedFile(path: "data/\($0.path)", node: $0.node) },
            [VersionRecord(versions[0], path: "data")]
        )
    }

    /// The tag files, in the order they are written: every one the tag manifests cover,
    /// then the tag manifests. A bag of every version has each version's record too.
    private static func tagFiles(
        payload: PayloadHashes, info: BagInfo, versions: [VersionRecord], of bundle: DocumentBundle
    ) throws -> [ExportedFile] {
        var tags: [(path: String, data: Data)] = [
            ("bagit.txt", Data("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8)),
            ("bag-info.txt", Data(info.text.utf8)),
            (
                "documentkit/versions.json",
                (try? CanonicalJSONEncoder().encode(versions, terminated: true)) ?? Data("[]\n".utf8)
            )
        ]
        for version in versions where version.record != nil {
            let record = OCFLVersionRecord(
                contentType: bundle.contentTypeIdentifier, mimeType: bundle.mimeType, version: version.whole!)
            tags.append((version.record!, try record.encoded()))
        }
        tags += [
            ("manifest-sha256.txt", manifest(payload.files.mapValues(\.sha256))),
            ("manifest-sha512.txt", manifest(payload.files.mapValues(\.sha512)))
        ]
        let covered = Dictionary(uniqueKeysWithValues: tags.map { ($0.path, $0.data) })
        tags.append(("tagmanifest-sha256.txt", manifest(covered.mapValues { hex(SHA256.hash(data: $0)) })))
        tags.append(("tagmanifest-sha512.txt", manifest(covered.mapValues { hex(SHA512.hash(data: $0)) })))
        var files = [ExportedFile(path: "documentkit", node: nil)]
        if versions.contains(where: { $0.record != nil }) {
            files.append(ExportedFile(path: historyRecordsFolder, node: nil))
        }
        files += tags.map { ExportedFile(path: $0.path, node: FileWrapper(regularFileWithContents: $0.data)) }
        return files
    }

    /// A manifest: `<hex>  <path>` lines sorted by path, paths encoded as RFC 8493 §2.1.3 says.
    private static func manifest(_ digests: [String: String]) -> Data {
        Data(digests.keys.sorted().map { "\(digests[$0]!)  \(BagPathCoding.encode($0))\n" }.joined().utf8)
    }

    static func hex(_ digest: some Digest) -> String {
        HexText.lowercase(digest)
    }

    /// The document's top-level `name` string, else the bundle's file name without its extension.
    private static func projectName(document: FileWrapper?, bundle: URL) -> String {
        if let document, (document.fileSize ?? .max) <= BundleLimits.default.maxDocumentBytes,
            let text = try? document.regularFileContents(), case .object(let members)? = try? JSONValue.parse(text),
            case .string(let name)? = members["name"], !name.isEmpty
        {
            return name
        }
        return bundle.deletingPathExtension().lastPathComponent
    }

    /// What `documentkit/versions.json` says of each version.
    package struct VersionRecord: Codable {
        var number: Int
        var id: String
        var parents: [String]
        var created: String
        var author: String
        var message: String
        var schema: String
        var path: String
        /// A bag of every version: each of the version's files (its path in the version's
        /// tree) and the payload file that holds its bytes (its path in the bag).
        var files: [String: String]?
        /// A bag of every version: the tag file of the version's whole record (as an OCFL
        /// version's `documentkit/version.json`), from which an import rebuilds it exactly.
        var record: String?
        /// The version the record is of, when it is written.
        var whole: BundleVersion?

        private enum CodingKeys: String, CodingKey {
            case number, id, parents, created, author, message, schema, path, files, record
        }

        init(_ version: BundleVersion, path: String, files: [String: String]? = nil, record: String? = nil) {
            number = version.number
            id = version.id
            parents = version.parents
            created = BagInfo.timestamp(version.created)
            author = version.author
            message = version.message
            schema = version.schema
            self.path = path
            self.files = files
            self.record = record
            whole = record == nil ? nil : version
        }
    }

    /// The SHA-256, SHA-512 and size of each payload file, by its path in the bag, taken
    /// from the bytes as they are written.
    final class PayloadHashes {
        struct File {
            var sha256: String
            var sha512: String
        }
        private var hashers: [String: (SHA256, SHA512)] = [:]
        private(set) var bytes: UInt64 = 0

        /// For the payload files at `paths` (so that an empty one, which passes no block, is listed too).
        init(paths: [String]) {
            for path in paths { hashers[path] = (SHA256(), SHA512()) }
        }

        /// Takes `block` of the file at `path`, when it is a payload file (tag files pass too).
        func update(_ path: String, _ block: UnsafeRawBufferPointer) {
            guard hashers[path] != nil else { return }
            hashers[path]!.0.update(bufferPointer: block)
            hashers[path]!.1.update(bufferPointer: block)
            bytes += UInt64(block.count)
        }

        var count: Int { hashers.count }

        /// Every payload file's digests.
        var files: [String: File] {
            hashers.mapValues { File(sha256: BagWriter.hex($0.0.finalize()), sha512: BagWriter.hex($0.1.finalize())) }
        }
    }
}

/// `bag-info.txt`'s fields (FORMAT.md §7, "Exports").
struct BagInfo {
    var agent: String
    var date: Date
    var contentType: String
    var projectName: String
    var newest: BundleVersion
    var versionCount: Int
    var payloadBytes: UInt64
    var payloadFiles: Int
    /// The access copy's first page, when the bag has one.
    var accessCopy: String?

    var text: String {
        let fields: [(String, String)] =
            [
                ("Bag-Software-Agent", agent),
                ("Bagging-Date", String(Self.timestamp(date).prefix(10))),
                ("DocumentKit-Content-Type", contentType),
                ("DocumentKit-Project-Name", projectName),
                ("DocumentKit-Version", "\(newest.number)"),
                ("DocumentKit-Version-Id", newest.id),
                ("DocumentKit-Version-Author", newest.author),
                ("DocumentKit-Version-Date", Self.timestamp(newest.created)),
                ("DocumentKit-Versions", "\(versionCount)"),
                ("Payload-Oxum", "\(payloadBytes).\(payloadFiles)")
            ] + (accessCopy.map { [("DocumentKit-Access-Copy", $0)] } ?? [])
        return fields.map { "\($0.0): \(Self.oneLine($0.1))\n" }.joined()
    }

    /// A value on one line: control characters (a message's newlines) become spaces.
    static func oneLine(_ value: String) -> String {
        String(
            String.UnicodeScalarView(value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
