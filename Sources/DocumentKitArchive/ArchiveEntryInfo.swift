import DocumentKitCore

/// One entry of a foreign archive, as ``ArchiveReader/nextEntry()`` reports it.
package struct ArchiveEntryInfo: Sendable, Equatable {
    /// What an entry is.
    package enum Kind: String, Sendable {
        /// A file with data.
        case regular
        /// A directory.
        case directory
        /// A symbolic link; see ``ArchiveEntryInfo/symlinkTarget``.
        case symbolicLink
        /// A hard link to an earlier entry; see ``ArchiveEntryInfo/hardlinkTarget``.
        case hardLink
        /// A device, FIFO or socket.
        case other
    }

    /// The entry's name, a validated relative path (see ``ArchiveEntryName``), without the
    /// `./` prefix many tar files carry and without a directory's trailing `/`.
    package var name: String
    /// What the entry is.
    package var kind: Kind
    /// The size the archive declares, when it declares one. Only ``Kind/regular`` entries
    /// have data; the bytes actually read are checked against the limits, not this value.
    package var size: UInt64?
    /// The permission bits (`0o7777` at most), without the file type.
    package var mode: UInt32
    /// Seconds since 1970 (UTC), when the archive records a modification time.
    package var modificationTime: Int64?
    /// Where a symbolic link points, as stored: possibly absolute or with `..` components.
    /// Whoever extracts decides what to allow.
    package var symlinkTarget: String?
    /// The name of the entry a hard link refers to, validated like ``name``.
    package var hardlinkTarget: String?

    /// Creates an entry description.
    package init(
        name: String, kind: Kind, size: UInt64? = nil, mode: UInt32 = 0o644, modificationTime: Int64? = nil,
        symlinkTarget: String? = nil, hardlinkTarget: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.size = size
        self.mode = mode
        self.modificationTime = modificationTime
        self.symlinkTarget = symlinkTarget
        self.hardlinkTarget = hardlinkTarget
    }
}
