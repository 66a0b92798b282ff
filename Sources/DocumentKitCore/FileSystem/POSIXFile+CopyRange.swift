#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension POSIXFile {
    /// Copies `count` bytes from `source` at `sourceOffset` to `destination` at
    /// `destinationOffset`.
    ///
    /// Uses `copy_file_range(2)` where the kernel offers it, so that unchanged bundle
    /// entries move without passing through user space (and share extents on file systems
    /// that reflink), and falls back to a `pread`/`pwrite` loop when the kernel or the file
    /// system refuses. Returns the number of bytes copied: fewer than `count` only when
    /// the source ends first, which the caller judges (an archive reader calls it truncated).
    @discardableResult
    package static func copy(
        from source: Int32, at sourceOffset: UInt64, sourcePath: String,
        to destination: Int32, at destinationOffset: UInt64, destinationPath: String,
        count: UInt64
    ) throws(SystemError) -> UInt64 {
        var copied: UInt64 = 0
        if let copyFileRange = CopyFileRange.function {
            while copied < count {
                guard var input = filePosition(sourceOffset, plus: Int(clamping: copied)),
                    var output = filePosition(destinationOffset, plus: Int(clamping: copied))
                else { break }
                let chunk = Int(clamping: min(count - copied, 1 << 30))
                let result = copyFileRange(source, &input, destination, &output, chunk, 0)
                if result > 0 {
                    copied += UInt64(result)
                    ProgressMeter.advance(.written, by: result)
                } else if result == 0 {
                    return copied
                } else if errno == EINTR {
                    continue
                } else if CopyFileRange.fallbackErrors.contains(errno) {
                    break
                } else {
                    throw error("cannot copy", path: destinationPath)
                }
            }
        }
        guard copied < count else { return copied }
        return try copied
            + copyByReading(
                from: source, at: sourceOffset + copied, sourcePath: sourcePath,
                to: destination, at: destinationOffset + copied, destinationPath: destinationPath,
                count: count - copied)
    }

    /// The portable path: a 1 MiB buffer between `pread` and `pwrite`. Returns the number
    /// of bytes copied, as ``copy(from:at:sourcePath:to:at:destinationPath:count:)`` does.
    @discardableResult
    package static func copyByReading(
        from source: Int32, at sourceOffset: UInt64, sourcePath: String,
        to destination: Int32, at destinationOffset: UInt64, destinationPath: String,
        count: UInt64
    ) throws(SystemError) -> UInt64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(count, 1 << 20)), alignment: 16)
        defer { buffer.deallocate() }
        var copied: UInt64 = 0
        while copied < count {
            let chunk = UnsafeMutableRawBufferPointer(
                rebasing: buffer[0..<Int(min(count - copied, UInt64(buffer.count)))])
            let read = try read(source, into: chunk, at: sourceOffset + copied, path: sourcePath)
            try write(
                destination, UnsafeRawBufferPointer(rebasing: chunk[0..<read]), at: destinationOffset + copied,
                path: destinationPath)
            copied += UInt64(read)
            ProgressMeter.advance(.written, by: read)
            if read < chunk.count { break }
        }
        return copied
    }
}

/// `copy_file_range(2)`, looked up at run time: Swift's Glibc module does not import it
/// (glibc declares it only under `_GNU_SOURCE`), and older C libraries lack it.
private enum CopyFileRange {
    typealias Function =
        @convention(c) (
            Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32
        ) -> Int

    static let function: Function? = {
        #if os(Linux)
            // A null handle is RTLD_DEFAULT: search the libraries already loaded.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        #else
            return nil
        #endif
    }()

    /// Errors that mean "not here" (old kernel, cross-device, unsupported file system)
    /// rather than a failed copy.
    static let fallbackErrors: Set<Int32> = [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, ENOTSUP, EBADF]
}
