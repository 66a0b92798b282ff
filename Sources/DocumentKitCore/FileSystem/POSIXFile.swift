#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX file calls the store and archive code make, retried on `EINTR`, looping over
/// short transfers, and throwing ``SystemError`` with the `errno` and the path.
///
/// Everything takes an explicit offset (`pread`/`pwrite`): readers can be shared, and a
/// writer can patch a header it wrote earlier without moving a file position.
package enum POSIXFile {
    /// Opens `path` with `open(2)`, always adding `O_CLOEXEC`.
    package static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32 {
        while true {
            let fd = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 { return fd }
            if errno != EINTR { throw error("cannot open", path: path) }
        }
    }

    /// The status of the file open as `fd` (`fstat(2)`).
    package static func status(_ fd: Int32, path: String) throws(SystemError) -> stat {
        var status = stat()
        guard SystemCall.retrying({ fstat(fd, &status) }) == 0 else { throw error("cannot stat", path: path) }
        return status
    }

    /// Reads into `buffer` from `offset` until it is full or the file ends; returns the
    /// number of bytes read, which is short only at the end of the file.
    package static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, path: String
    ) throws(SystemError) -> Int {
        var done = 0
        while done < buffer.count {
            guard let position = filePosition(offset, plus: done) else { return done }
            let count = pread(fd, buffer.baseAddress.unsafelyUnwrapped + done, buffer.count - done, position)
            if count > 0 {
                done += count
            } else if count == 0 {
                return done
            } else if errno != EINTR {
                throw error("cannot read", path: path)
            }
        }
        return done
    }

    /// Writes all of `bytes` at `offset`.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64, path: String)
        throws(SystemError)
    {
        var done = 0
        while done < bytes.count {
            guard let position = filePosition(offset, plus: done) else {
                throw SystemError("cannot write at offset \(offset)", errno: EFBIG, path: path)
            }
            let count = pwrite(fd, bytes.baseAddress.unsafelyUnwrapped + done, bytes.count - done, position)
            if count > 0 {
                done += count
            } else if count < 0, errno != EINTR {
                throw error("cannot write", path: path)
            } else if count == 0 {
                // A write that takes nothing: the device accepts no more bytes.
                throw SystemError("cannot write", errno: ENOSPC, path: path)
            }
        }
    }

    /// Allocates the file's blocks for the `count` bytes from `offset` (`posix_fallocate`),
    /// extending the file when they pass its end: writing them afterwards cannot fail for
    /// want of space, nor pass a file-size limit that the allocation passed.
    package static func allocate(_ fd: Int32, at offset: UInt64, count: Int, path: String) throws(SystemError) {
        guard let start = filePosition(offset, plus: 0) else {
            throw SystemError("cannot allocate at offset \(offset)", errno: EFBIG, path: path)
        }
        var result: Int32
        repeat { result = posix_fallocate(fd, start, off_t(count)) } while result == EINTR
        guard result == 0 else { throw SystemError("cannot allocate space in", errno: result, path: path) }
    }

    /// `offset + delta` as an `off_t`, or `nil` when it does not fit.
    package static func filePosition(_ offset: UInt64, plus delta: Int) -> off_t? {
        let (sum, overflow) = offset.addingReportingOverflow(UInt64(delta))
        return overflow ? nil : off_t(exactly: sum)
    }

    /// Closes `fd`, ignoring errors: only read-only descriptors are closed this way.
    package static func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// The error of `operation`, failed now: the current `errno`.
    package static func error(_ operation: String, path: String, code: Int32 = errno) -> SystemError {
        SystemError(operation, errno: code, path: path)
    }
}

// The module-level C functions, under names the enum's own methods do not shadow.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
