import Crypto
import Foundation

/// Checks a BagIt bag (RFC 8493) before anything is imported from it: every payload file
/// against `manifest-sha256.txt` and `manifest-sha512.txt` (those it has), no payload
/// file missing or unlisted, and `Payload-Oxum` when `bag-info.txt` gives it. Links and
/// special files are refused, never followed.
package enum BagReader {
    /// The folder of `source` to import: `nil` when `source` is not a bag (it has no
    /// `bagit.txt`); else, once the bag checks out, `data/` (a bag of one version) or the
    /// newest version's folder of `data/versions/` (a bag of every version written before
    /// each distinct file was kept once). A bag of every version that keeps each file once
    /// is ``BagImporter``'s to import.
    package static func payloadFolder(of source: URL) throws -> URL? {
        let bagit = source.appendingPathComponent("bagit.txt")
        guard SystemCall.linkStatus(bagit.path) != nil else { return nil }
        if BagImporter.holdsHistory(source) {
            throw DocumentKitError(
                .usage, "is a bag of every version of a project, which BagImporter.importHistory restores whole",
                path: source.relativePath)
        }
        try validate(source)
        let data = source.appendingPathComponent("data")
        if SystemCall.linkStatus(data.appendingPathComponent(VersionLayout.documentName).path) != nil { return data }
        let versions = data.appendingPathComponent("versions")
        let newest = ((try? FileTree.names(in: versions.path)) ?? [])
            .compactMap { name in name.split(separator: "-").first.flatMap { Int($0) }.map { ($0, name) } }
            .max { $0.0 < $1.0 }
        guard let newest else {
            throw DocumentKitError(
                .malformedInput, "the bag holds no data/document.json and no data/versions/<number>-<id>/",
                path: source.relativePath)
        }
        return versions.appendingPathComponent(newest.1)
    }

    /// Throws `malformedInput`, naming the file, unless the bag at `bag` is complete and valid.
    package static func validate(_ bag: URL) throws {
        let text = try tagText(bag, "bagit.txt")
        guard text.hasPrefix("BagIt-Version:") else {
            throw DocumentKitError(
                .malformedInput, "not a bag: it does not start with 'BagIt-Version:'", path: path(bag, "bagit.txt"))
        }
        var manifests: [(name: String, digests: [String: String])] = []
        for name in ["manifest-sha256.txt", "manifest-sha512.txt"]
        where SystemCall.linkStatus(bag.appendingPathComponent(name).path) != nil {
            manifests.append((name, try manifest(bag, name)))
        }
        guard !manifests.isEmpty else {
            throw DocumentKitError(
                .malformedInput, "the bag has no manifest-sha256.txt or manifest-sha512.txt", path: bag.relativePath)
        }
        let present = try payloadFiles(bag)
        for (name, digests) in manifests {
            if let missing = digests.keys.sorted().first(where: { !present.contains($0) }) {
                throw DocumentKitError(.malformedInput, "is missing: \(name) lists it", path: path(bag, missing))
            }
            if let extra = present.sorted().first(where: { digests[$0] == nil }) {
                throw DocumentKitError(
                    .malformedInput, "is not in \(name): a payload file every manifest must list",
                    path: path(bag, extra))
            }
        }
        var totalBytes: UInt64 = 0
        try ProgressMeter.phase(.verifying, counting: .read, totalBytes: nil) {
            for file in present.sorted() {
                let open = try OpenFile.forReading(bag.appendingPathComponent(file))
                var sha256 = SHA256()
                var sha512 = SHA512()
                try open.stream { block in
                    sha256.update(bufferPointer: block)
                    sha512.update(bufferPointer: block)
                    totalBytes += UInt64(block.count)
                    ProgressMeter.advance(.read, by: block.count)
                }
                let found = [
                    "manifest-sha256.txt": BagWriter.hex(sha256.finalize()),
                    "manifest-sha512.txt": BagWriter.hex(sha512.finalize())
                ]
                for (name, digests) in manifests where digests[file] != found[name] {
                    throw DocumentKitError(
                        .malformedInput,
                        """
                        does not match \(name): its checksum is \(found[name]!.prefix(12))…, the manifest says \
                        \(digests[file]!.prefix(12))…
                        """,
                        path: path(bag, file))
                }
            }
        }
        if SystemCall.linkStatus(bag.appendingPathComponent("bag-info.txt").path) != nil,
            let oxum = try tagText(bag, "bag-info.txt").split(separator: "\n").first(where: {
                $0.hasPrefix("Payload-Oxum:")
            })
        {
            let value = oxum.dropFirst("Payload-Oxum:".count).trimmingCharacters(in: .whitespaces)
            guard value == "\(totalBytes).\(present.count)" else {
                throw DocumentKitError(
                    .malformedInput, "Payload-Oxum is \(value), the payload is \(totalBytes).\(present.count)",
                    path: path(bag, "bag-info.txt"))
            }
        }
    }

    private static func path(_ bag: URL, _ file: String) -> String {
        bag.appendingPathComponent(file).relativePath
    }

    /// The bytes of the tag file at `name` (a relative path under `bag`, at most 16 MiB),
    /// refusing links.
    package static func tagData(_ bag: URL, _ name: String) throws -> Data {
        guard !name.hasPrefix("data/"), (try? ArchiveEntryName.validate(name)) != nil else {
            throw DocumentKitError(.malformedInput, "'\(name)' is not a tag file's path", path: bag.relativePath)
        }
        return try regularFile(bag.appendingPathComponent(name), reportedAs: path(bag, name)).readAll(limit: 16 << 20)
    }

    /// A tag file's text (at most 16 MiB), refusing links.
    private static func tagText(_ bag: URL, _ name: String) throws -> String {
        let url = bag.appendingPathComponent(name)
        let file = try regularFile(url, reportedAs: path(bag, name))
        let data = try file.readAll(limit: 16 << 20)
        guard let text = String(data: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data, encoding: .utf8)
        else {
            throw DocumentKitError(.malformedInput, "is not UTF-8", path: path(bag, name))
        }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// A manifest's digests by payload path (decoded), each path a safe relative path under `data/`.
    private static func manifest(_ bag: URL, _ name: String) throws -> [String: String] {
        var digests: [String: String] = [:]
        for (index, line) in try tagText(bag, name).split(separator: "\n", omittingEmptySubsequences: true).enumerated()
        {
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2 else {
                throw DocumentKitError(
                    .malformedInput, "line \(index + 1) is not '<checksum> <path>'", path: path(bag, name))
            }
            let file = BagPathCoding.decode(parts[1].trimmingCharacters(in: .whitespaces))
            guard file.hasPrefix("data/"), (try? ArchiveEntryName.validate(file)) != nil else {
                throw DocumentKitError(
                    .malformedInput, "line \(index + 1) names '\(file)', which is not a path under data/",
                    path: path(bag, name))
            }
            guard digests.updateValue(parts[0].lowercased(), forKey: file) == nil else {
                throw DocumentKitError(.malformedInput, "lists '\(file)' twice", path: path(bag, name))
            }
        }
        return digests
    }

    /// Every regular file under `data/`, by its path in the bag; links and special files
    /// are refused, never followed.
    private static func payloadFiles(_ bag: URL) throws -> Set<String> {
        var found = Set<String>()
        var folders = ["data"]
        while let folder = folders.popLast() {
            let url = bag.appendingPathComponent(folder)
            guard let info = SystemCall.linkStatus(url.path), (info.st_mode & S_IFMT) == S_IFDIR else {
                throw DocumentKitError(
                    .malformedInput, "is not a folder (links are not followed)", path: path(bag, folder))
            }
            for name in try FileTree.names(in: url.path) {
                let child = "\(folder)/\(name)"
                guard let status = SystemCall.linkStatus(bag.appendingPathComponent(child).path) else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: folders.append(child)
                case S_IFREG: found.insert(child)
                default:
                    throw DocumentKitError(
                        .malformedInput, "is not a regular file or folder (links are not followed)",
                        path: path(bag, child))
                }
            }
        }
        return found
    }

    private static func regularFile(_ url: URL, reportedAs reported: String) throws -> OpenFile {
        guard let info = SystemCall.linkStatus(url.path) else {
            throw DocumentKitError.system("cannot open", path: reported, errno: errno)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentKitError(.malformedInput, "is not a regular file (links are not followed)", path: reported)
        }
        return try OpenFile.forReading(url)
    }
}
