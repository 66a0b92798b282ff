import CArchive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A libarchive entry (`struct archive_entry`): the header of one file in an archive.
///
/// It exists so that libarchive's `archive_entry_*` calls are made in this folder alone:
/// ``ArchiveReader`` reads the entries a ``LibArchiveReader`` returns, and ``ArchiveWriter``
/// and ``ZstdCodec`` fill entries for a ``LibArchiveWriter``, through these methods. An
/// entry made here (`archive_entry_new`) is freed with the value (`archive_entry_free`);
/// an entry a reader returned is the reader's, valid until its next call, and never freed
/// here. It cannot be copied, so an entry is freed exactly once.
struct LibArchiveEntry: ~Copyable {
    /// An entry's file type (`AE_IF*`): the ones told apart here, or any other by value.
    struct FileType: Equatable {
        let rawValue: UInt32

        /// A regular file (`AE_IFREG`).
        static let regular = FileType(rawValue: CARCHIVE_AE_IFREG)
        /// A directory (`AE_IFDIR`).
        static let directory = FileType(rawValue: CARCHIVE_AE_IFDIR)
        /// A symbolic link (`AE_IFLNK`).
        static let symbolicLink = FileType(rawValue: CARCHIVE_AE_IFLNK)
    }

    /// The entry, for the reader or writer passing it to libarchive.
    let pointer: OpaquePointer
    private let owned: Bool

    /// A new, empty entry (`archive_entry_new`), or `nil` if libarchive cannot allocate one.
    init?() {
        guard let pointer = archive_entry_new() else { return nil }
        self.pointer = pointer
        self.owned = true
    }

    /// The entry a reader returned, which stays the reader's.
    init(ownedByArchive pointer: OpaquePointer) {
        self.pointer = pointer
        self.owned = false
    }

    deinit {
        if owned { archive_entry_free(pointer) }
    }

    // MARK: - Reading

    /// The name in the current locale (`archive_entry_pathname`), or `nil` if libarchive
    /// could not convert it.
    var pathname: UnsafePointer<CChar>? { archive_entry_pathname(pointer) }
    /// The name in UTF-8 (`archive_entry_pathname_utf8`), or `nil` if libarchive could not
    /// convert it.
    var pathnameUTF8: UnsafePointer<CChar>? { archive_entry_pathname_utf8(pointer) }
    /// The file type (`archive_entry_filetype`).
    var fileType: FileType { FileType(rawValue: UInt32(archive_entry_filetype(pointer))) }
    /// The permission bits as stored (`archive_entry_perm`).
    var permissions: UInt32 { UInt32(archive_entry_perm(pointer)) }

    /// The size (`archive_entry_size`), when the header sets one (`archive_entry_size_is_set`).
    var size: Int64? {
        archive_entry_size_is_set(pointer) != 0 ? archive_entry_size(pointer) : nil
    }

    /// The modification time in seconds since 1970 (`archive_entry_mtime`), when the header
    /// sets one (`archive_entry_mtime_is_set`).
    var modificationTime: Int64? {
        archive_entry_mtime_is_set(pointer) != 0 ? Int64(archive_entry_mtime(pointer)) : nil
    }

    /// The name a hard link refers to (`archive_entry_hardlink`); `nil` if not a hard link.
    var hardlink: UnsafePointer<CChar>? { archive_entry_hardlink(pointer) }
    /// A symbolic link's target in the current locale (`archive_entry_symlink`).
    var symlink: UnsafePointer<CChar>? { archive_entry_symlink(pointer) }
    /// A symbolic link's target in UTF-8 (`archive_entry_symlink_utf8`).
    var symlinkUTF8: UnsafePointer<CChar>? { archive_entry_symlink_utf8(pointer) }

    // MARK: - Writing

    /// Sets the name, given in UTF-8 (`archive_entry_set_pathname_utf8`).
    func setPathnameUTF8(_ name: String) { archive_entry_set_pathname_utf8(pointer, name) }
    /// Sets the file type (`archive_entry_set_filetype`).
    func setFileType(_ type: FileType) { archive_entry_set_filetype(pointer, type.rawValue) }
    /// Sets the permission bits (`archive_entry_set_perm`).
    func setPermissions(_ mode: UInt32) { archive_entry_set_perm(pointer, mode_t(mode)) }
    /// Sets the size (`archive_entry_set_size`).
    func setSize(_ size: Int64) { archive_entry_set_size(pointer, size) }
    /// Sets the owner's user id (`archive_entry_set_uid`).
    func setUID(_ uid: Int64) { archive_entry_set_uid(pointer, uid) }
    /// Sets the owner's group id (`archive_entry_set_gid`).
    func setGID(_ gid: Int64) { archive_entry_set_gid(pointer, gid) }

    /// Sets the modification time (`archive_entry_set_mtime`).
    func setModificationTime(_ seconds: Int64, nanoseconds: Int = 0) {
        archive_entry_set_mtime(pointer, time_t(seconds), nanoseconds)
    }
}
