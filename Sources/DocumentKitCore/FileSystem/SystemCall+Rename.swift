import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// `renameat2(2)` (glibc 2.28, Linux 3.15), which Glibc's module map leaves out (it is a
    /// GNU extension).
    @_silgen_name("renameat2")
    private func linuxRenameat2(
        _ oldFolder: Int32, _ old: UnsafePointer<CChar>, _ newFolder: Int32, _ new: UnsafePointer<CChar>,
        _ flags: UInt32
    ) -> Int32
#endif

extension SystemCall {
    /// How ``rename(_:to:_:)`` treats what is at the destination.
    package enum RenameMode {
        /// Fails with `EEXIST` when anything is there (`RENAME_NOREPLACE`): of two writers
        /// renaming to one name, one wins.
        case withoutReplacing
        /// Swaps the two, which must both exist (`RENAME_EXCHANGE`): a reader sees either,
        /// never neither, so a folder of many files is replaced in one step.
        case exchanging
    }

    /// Renames `source` to `destination` in one step, as `mode` says; whether it was done
    /// (`errno` set when not: `EEXIST` for a taken name, `EINVAL` or `ENOSYS` where the file
    /// system or system has no such rename).
    package static func rename(_ source: String, to destination: String, _ mode: RenameMode) -> Bool {
        #if os(Linux)
            let flags: UInt32 = mode == .withoutReplacing ? 1 : 2
            return retrying { linuxRenameat2(AT_FDCWD, source, AT_FDCWD, destination, flags) } == 0
        #else
            errno = ENOSYS
            return false
        #endif
    }

    /// `rmdir(2)`: whether the folder is gone; it is not when it holds anything.
    package static func removeEmptyFolder(_ path: String) -> Bool {
        retrying { rmdir(path) } == 0
    }

    /// `link(2)`: a second name for the file at `source`; whether it was made.
    package static func link(_ source: String, to destination: String) -> Bool {
        retrying { linkFile(source, destination) } == 0
    }
}

// The C function, under a name the enum's own method does not shadow.
private func linkFile(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> Int32 {
    link(source, destination)
}
