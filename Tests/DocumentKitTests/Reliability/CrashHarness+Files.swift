import Foundation

@testable import DocumentKit

/// The files a trial may leave, and comparisons of outputs.
extension CrashHarness {
    /// The hidden files in the folder, by name, with their inode numbers (a journal written
    /// again has a new one).
    func leftovers() -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        for name in Fixtures.listing(directory.url) where name.hasPrefix(".") {
            var info = stat()
            lstat(url(name).path, &info)
            found[name] = UInt64(info.st_ino)
        }
        return found
    }

    /// The file a temporary of our naming belongs to, or `nil` if the name is not ours:
    /// `.NAME.dk-append`, `.NAME.dk-XXXXXXXX.tmp` or `.NAME.dk-old-XXXXXXXX.tmp`.
    func owner(of name: String) -> String? {
        for target in bundles + outputs.values {
            let prefix = ".\(target).dk-"
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            if rest == "append", bundles.contains(target) { return target }
            let random = rest.hasPrefix("old-") ? rest.dropFirst(4) : rest
            if random.hasSuffix(".tmp"), random.count == 12, random.dropLast(4).allSatisfy(\.isHexDigit) {
                return target
            }
        }
        return nil
    }

    /// Whether two files, or two folders (recursively), hold the same names and bytes.
    func sameContents(_ first: URL, _ second: URL) throws -> Bool {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: first.path, isDirectory: &isFolder) else { return false }
        if !isFolder.boolValue { return try Data(contentsOf: first) == Data(contentsOf: second) }
        let names = try manager.contentsOfDirectory(atPath: first.path).sorted()
        let otherNames = try manager.contentsOfDirectory(atPath: second.path).sorted()
        guard names == otherNames else { return false }
        return try names.allSatisfy {
            try sameContents(first.appendingPathComponent($0), second.appendingPathComponent($0))
        }
    }
}

/// What the crash harness reads of project documents.
extension JSONValue {
    /// The digest of the blob a project's thumbnail refers to.
    var thumbnailDigest: String? {
        guard case .object(let document) = self, case .object(let thumbnail)? = document["thumbnail"],
            case .string(let digest)? = thumbnail["$blob"]
        else { return nil }
        return digest
    }

    /// The number of elements, for an array; 0 otherwise.
    var arrayCount: Int {
        if case .array(let elements) = self { return elements.count }
        return 0
    }
}

/// What uninterrupted runs make, for comparison with what killed ones leave.
extension CrashHarness {
    /// Runs `arguments` to completion in a folder of its own, on copies of the files
    /// `names` (those that exist); returns the folder.
    private func completeRun(_ arguments: [String], copying names: [String]) throws -> URL {
        let folder = references.url.appendingPathComponent("complete-run")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for name in names where FileManager.default.fileExists(atPath: url(name).path) {
            try FileManager.default.copyItem(at: url(name), to: folder.appendingPathComponent(name))
            // With the journal an earlier trial's killed save left: without it, the copy
            // would end in that save's tail, which no reader can use.
            let journal = AppendJournal.path(for: url(name).path)
            if FileManager.default.fileExists(atPath: journal) {
                try FileManager.default.copyItem(
                    atPath: journal, toPath: AppendJournal.path(for: folder.appendingPathComponent(name).path))
            }
        }
        let result = try Run.docctl(arguments, in: folder)
        guard result.status == 0 else {
            throw HarnessFailure(description: "\(arguments.joined(separator: " ")) on copies: \(result.standardError)")
        }
        return folder
    }

    /// The state of the bundle `name` after an uninterrupted run of `arguments`.
    func completeRun(_ arguments: [String], copying names: [String], reading name: String) throws -> BundleState {
        try BundleState(completeRun(arguments, copying: names).appendingPathComponent(name))
    }

    /// The versions the root `root` holds after an uninterrupted run of `arguments`.
    func completeRun(_ arguments: [String], copying names: [String], archived root: String) throws -> [VersionID] {
        try archivedVersions(at: completeRun(arguments, copying: names).appendingPathComponent(root)) ?? []
    }

    /// The bundle versions the OCFL root `root` holds, as a clone of it has them; `nil` when
    /// there is no root yet (no OCFL declaration: a first archive killed before the root
    /// appeared).
    func archivedVersions(_ root: String) throws -> [VersionID]? {
        try archivedVersions(at: url(root))
    }

    private func archivedVersions(at root: URL) throws -> [VersionID]? {
        guard Fixtures.listing(root).contains(where: { $0.hasPrefix("0=ocfl_") }) else { return nil }
        let clone = references.url.appendingPathComponent("clone.dkproj")
        try? FileManager.default.removeItem(at: clone)
        let result = try Run.docctl(["clone", root.path, "-o", clone.path], in: references.url)
        guard result.status == 0 else {
            throw HarnessFailure(description: "clone of \(root.lastPathComponent): \(result.standardError)")
        }
        return try DocumentBundle(contentsOf: clone).manifest.versions.map(\.id)
    }
}
