import CArchive
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
    package func nextEntry() throws(ArchiveError) -> ArchiveEntryInfo? {
        guard let archive else { return nil }
        return try LibArchive.withUTF8Locale { () throws(ArchiveError) -> ArchiveEntryInfo? in
            while true {
                current = nil
                var entry: OpaquePointer?
                // libarchive reads errno after a name it cannot convert, to tell running out
                // of memory (fatal) from a name that is not UTF-8 (a warning): an ENOMEM left
                // by an earlier call on this thread made a zip's non-UTF-8 name end the
                // reading with "Can't allocate memory for Pathname" (once, in CI).
                errno = 0
                let code = archive_read_next_header(archive, &entry)
                if code == ARCHIVE_EOF {
                    if entryCount == 0 { try checkEmptyArchive() }
                    return nil
                }
                guard code == ARCHIVE_OK || code == ARCHIVE_WARN, let entry else {
                    throw LibArchive.error(archive, kind: .malformed, path: path)
                }
                entryCount += 1
                guard entryCount <= limits.maxEntries else {
                    throw ArchiveError(
                        .limitExceeded, "the archive has more than \(limits.maxEntries) entries", path: path)
                }
                guard let info = try describe(entry, in: archive, warning: code == ARCHIVE_WARN) else { continue }
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
        _ entry: OpaquePointer, in archive: OpaquePointer, warning: Bool
    ) throws(ArchiveError) -> ArchiveEntryInfo? {
        let rawName = try rawString(archive_entry_pathname(entry), archive_entry_pathname_utf8(entry), what: "name")
        let fileType = archive_entry_filetype(entry)
        let isDirectory = fileType == CARCHIVE_AE_IFDIR
        guard let name = try normalize(rawName, isDirectory: isDirectory) else { return nil }
        if warning {
            // The name converted fine, so the warning is about another field (a malformed
            // pax attribute, an owner name): the header is damaged.
            throw LibArchive.error(archive, kind: .malformed, path: path, entry: name)
        }
        var info = ArchiveEntryInfo(name: name, kind: .other, mode: UInt32(archive_entry_perm(entry)) & 0o7777)
        if archive_entry_size_is_set(entry) != 0 { info.size = UInt64(clamping: max(archive_entry_size(entry), 0)) }
        if archive_entry_mtime_is_set(entry) != 0 { info.modificationTime = Int64(archive_entry_mtime(entry)) }
        if let link = archive_entry_hardlink(entry) {
            info.kind = .hardLink
            let target = try rawString(link, nil, what: "hard link target", entry: name)
            do {
                info.hardlinkTarget = try normalize(target, isDirectory: false)
            } catch {
                throw ArchiveError(
                    .unsafeEntry, "the hard link target '\(target)' is unsafe: \(error.message)", path: path,
                    entry: name)
            }
        } else if fileType == CARCHIVE_AE_IFREG {
            info.kind = .regular
        } else if isDirectory {
            info.kind = .directory
        } else if fileType == CARCHIVE_AE_IFLNK {
            info.kind = .symbolicLink
            let target = try rawString(
                archive_entry_symlink(entry), archive_entry_symlink_utf8(entry), what: "link target", entry: name)
            do {
                info.symlinkTarget = try ArchiveEntryName.decodeUTF8(Array(target.utf8))
            } catch {
                throw error.adding(path: path, entry: name)
            }
        }
        return info
    }

    /// The bytes libarchive gives for a name, as a String; refuses a name that is missing
    /// or not UTF-8 (the locale is UTF-8, so a failed conversion means invalid input).
    private func rawString(
        _ localized: UnsafePointer<CChar>?, _ utf8: UnsafePointer<CChar>?, what: String, entry: String? = nil
    ) throws(ArchiveError) -> String {
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
