import Foundation

extension PreferencesFile {
    /// What a read found: the members, and the file's status when it exists.
    package struct Contents {
        package var values: [String: JSONValue]
        package var status: stat?
    }

    /// Reads the file at `path` (symbolic links resolved); a missing file holds nothing.
    /// `name` is the path errors report, as the caller gave it.
    package static func read(_ path: URL, named name: String) throws -> Contents {
        let file: OpenFile
        do {
            file = try OpenFile.forReading(path.path)
        } catch let error as DocumentKitError where error.code == .missingInput {
            return Contents(values: [:], status: nil)
        }
        WorkMeter.count(.settingsReads)
        let status = try file.status()
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentKitError(.malformedInput, "not a regular file", path: name)
        }
        return try DocumentKitError.located(at: name) {
            let json = try JSONValue.parse(file.readAll(limit: sizeLimit))
            guard case .object(let members) = json else {
                throw DocumentKitError(
                    .malformedInput, "expected a JSON object of preferences, found \(article(json.kindName))",
                    path: name)
            }
            return Contents(values: members, status: status)
        }
    }

    /// Applies `change` to the file's members under the folder's lock: creates the folder
    /// if need be, locks it, reads the file afresh, and writes it again only if `change`
    /// changed something. Errors name the file.
    public func update(_ change: (inout [String: JSONValue]) throws -> Void) throws {
        try DocumentKitError.located(at: url.path) { try updateLocated(change) }
    }

    private func updateLocated(_ change: (inout [String: JSONValue]) throws -> Void) throws {
        let target = AtomicReplacement.resolvingSymbolicLinks(url)
        let folder = target.deletingLastPathComponent()
        try createFolder(folder)
        // The folder, not the file, is locked: the file is replaced by every write (a lock
        // on it would be on an inode no longer named), and a separate lock file would be
        // one more file to leave behind. Nothing replaces the folder.
        let lock = try BundleLock.acquire(folder)
        defer { withExtendedLifetime(lock) {} }
        AtomicReplacement.removeLeftovers(of: target)
        let contents = try PreferencesFile.read(target, named: url.path)
        var values = contents.values
        try change(&values)
        guard values != contents.values else { return }
        var text = JSONValue.object(values).encoded(pretty: true)
        text.append(0x0A)
        let replacement = try AtomicReplacement(destination: target)
        try replacement.file.write(text)
        try replacement.commit(
            mode: contents.status.map { $0.st_mode & 0o7777 } ?? AtomicReplacement.defaultMode(),
            owner: contents.status.map { ($0.st_uid, $0.st_gid) })
    }

    /// Creates `folder` and any missing parents, private to the user (0700) as the XDG
    /// specification asks of the folders it names.
    private func createFolder(_ folder: URL) throws {
        if SystemCall.status(folder.path) != nil { return }
        let parent = folder.deletingLastPathComponent()
        if parent.path != folder.path { try createFolder(parent) }
        // EEXIST: another process created it meanwhile, which is as good.
        guard SystemCall.makeFolder(folder.path, mode: 0o700) || errno == EEXIST else {
            throw DocumentKitError(
                .cannotCreateOutput,
                SystemError.message("cannot create the preferences folder", errno: errno), path: folder.path)
        }
    }

    private static func article(_ kind: String) -> String {
        ["a", "e", "i", "o", "u"].contains(kind.prefix(1)) ? "an \(kind)" : "a \(kind)"
    }
}
