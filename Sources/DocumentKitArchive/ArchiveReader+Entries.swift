import DocumentKitCore
import Foundation

extension ArchiveReader {
    /// The next entry's description, or `nil` after the last entry.
    ///
    /// Data of the previous entry that was not read is skipped.
    ///
    /// - Throws: `.unsafeEntry` for a name or hard-link target that is not a safe relative
    ///   path in UTF-8, `.duplicateEntry` for a name seen before (in both cases the reader
    ///   stays usable: calling again skips the entry);
    ///   `.limitExceeded` past ``ArchiveLimits/maxEntries``; `.notAnArchive` when the file
    ///   only looked like an empty tar (a disk image starting with zeros); `.truncated` or
    ///   `.malformed` for damage.
    package func nextEntry() throws -> ArchiveEntryInfo? {
        switch archive {
        case .none: return nil
        case .some(let archive): return try nextEntry(of: archive)
        }
    }

    /// ``nextEntry()`` through `archive`, the reader's handle.
    private func nextEntry(of archive: borrowing LibArchiveReader) throws -> ArchiveEntryInfo? {
        try LibArchive.withUTF8Locale { () throws -> ArchiveEntryInfo? in
            while true {
                current = nil
                // libarchive reads errno after a name it cannot convert, to tell running out
                // of memory (fatal) from a name that is not UTF-8 (a warning): an ENOMEM left
                // by an earlier call on this thread made a zip's non-UTF-8 name end the
                // reading with "Can't allocate memory for Pathname" (once, in CI).
                errno = 0
                guard let header = try archive.nextHeader() else {
                    if entryCount == 0 { try checkEmptyArchive() }
                    return nil
                }
                entryCount += 1
                guard entryCount <= limits.maxEntries else {
                    throw ArchiveError(
                        .limitExceeded, "the archive has more than \(limits.maxEntries) entries", path: path)
                }
                guard let info = try describe(header.entry, in: archive, warning: header.warning) else { continue }
                guard collisionKeys.insert(ArchiveEntryName.collisionKey(info.name)).inserted else {
                    throw ArchiveError(
                        .duplicateEntry,
                        "an earlier entry has the same name, or one differing only in case or Unicode normalization",
                        path: path, entry: info.name)
                }
                current = CurrentEntry(name: info.name, declaredSize: info.size)
                return info
            }
        }
    }

    /// The description of `entry`, or `nil` for the archive's root directory (`./`).
    private func describe(
        _ entry: borrowing LibArchiveEntry, in archive: borrowing LibArchiveReader, warning: Bool
    ) throws -> ArchiveEntryInfo? {
        let rawName = try rawString(entry.pathname, entry.pathnameUTF8, what: "name")
        let fileType = entry.fileType
        let isDirectory = fileType == .directory
        guard let name = try normalize(rawName, isDirectory: isDirectory) else { return nil }
        if warning {
            // The name converted fine, so the warning is about another field (a malformed
            // pax attribute, an owner name): the header is damaged.
            throw archive.error(kind: .malformed, entry: name)
        }
        var info = ArchiveEntryInfo(name: name, kind: .other, mode: entry.permissions & 0o7777)
        if let size = entry.size { info.size = UInt64(clamping: max(size, 0)) }
        if let modificationTime = entry.modificationTime { info.modificationTime = modificationTime }
        if let link = entry.hardlink {
            info.kind = .hardLink
            let target = try rawString(link, nil, what: "hard link target", entry: name)
            do {
                info.hardlinkTarget = try normalize(target, isDirectory: false)
            } catch {
                throw ArchiveError(
                    .unsafeEntry, "the hard link target '\(target)' is unsafe: \(error.message)", path: path,
                    entry: name)
            }
        } else if fileType == .regular {
            info.kind = .regular
        } else if isDirectory {
            info.kind = .directory
        } else if fileType == .symbolicLink {
            info.kind = .symbolicLink
            let target = try rawString(entry.symlink, entry.symlinkUTF8, what: "link target", entry: name)
            do {
                info.symlinkTarget = try ArchiveEntryName.decodeUTF8(Array(target.utf8))
            } catch {
                throw error.addingArchiveContext(path: path, entry: name)
            }
        }
        return info
    }

    /// The bytes libarchive gives for a name, as a String; refuses a name that is missing
    /// or not UTF-8 (the locale is UTF-8, so a failed conversion means invalid input).
    private func rawString(
        _ localized: UnsafePointer<CChar>?, _ utf8: UnsafePointer<CChar>?, what: String, entry: String? = nil
    ) throws -> String {
        guard let pointer = localized ?? utf8 else {
            throw ArchiveError(
                .unsafeEntry, "the entry's \(what) is missing or not valid UTF-8", path: path, entry: entry)
        }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
        do {
            return try ArchiveEntryName.decodeUTF8(bytes)
        } catch {
            throw ArchiveError(
                .unsafeEntry, "the entry's \(what) is not valid UTF-8", path: path, entry: entry ?? error.entry)
        }
    }

    /// `name` without the `./` prefixes tar files often carry and without a directory's
    /// trailing `/`, validated; `nil` for the root directory itself.
    private func normalize(_ name: String, isDirectory: Bool) throws(ArchiveError) -> String? {
        var normalized = Substring(name)
        while normalized.hasPrefix("./") { normalized = normalized.dropFirst(2) }
        if isDirectory, normalized.hasSuffix("/") { normalized = normalized.dropLast() }
        if isDirectory, normalized.isEmpty || normalized == "." { return nil }
        do {
            try ArchiveEntryName.validate(String(normalized))
        } catch {
            // Report the name as stored, so the user can find it with other tools.
            throw ArchiveError(.unsafeEntry, error.message, path: path, entry: name)
        }
        return String(normalized)
    }
}
