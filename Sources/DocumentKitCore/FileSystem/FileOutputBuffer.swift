#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Buffered, position-tracking output to a file descriptor, for writers that append
/// records and later patch a few bytes they already wrote (a CRC in a local header).
///
/// Every write is a `pwrite` at an offset this object tracks, starting at 0 (or where an
/// append begins), so the descriptor's own file position is never used or moved.
///
/// When the file was empty at the start, blocks of zeros are not written at all: the
/// offset moves past them, leaving a hole that reads back as zeros (POSIX guarantees it),
/// so a long run of zeros costs neither disk space nor write bandwidth.
package final class FileOutputBuffer {
    /// The descriptor written to; owned by the caller.
    package let fileDescriptor: Int32
    /// The file's path, for error messages.
    package let path: String
    /// The offset in the file where `buffer` starts: everything before it is written.
    private var flushedOffset: UInt64
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0
    /// Whether zeros may be skipped: only when nothing was in the file to begin with.
    private let leavesHoles: Bool

    /// Output to `fileDescriptor` from `offset` on, gathering small writes into `capacity` bytes.
    package init(fileDescriptor: Int32, path: String, startingAt offset: UInt64 = 0, capacity: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.flushedOffset = offset
        self.buffer = .allocate(byteCount: capacity, alignment: 16)
        var status = stat()
        leavesHoles =
            offset == 0 && fstat(fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
            && status.st_size == 0
    }

    deinit {
        buffer.deallocate()
    }

    /// The offset of the next byte to be appended: the length of the output so far.
    package var offset: UInt64 { flushedOffset + UInt64(buffered) }

    /// Appends `bytes`.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        if bytes.count > buffer.count - buffered {
            try flush()
            if bytes.count >= buffer.count {
                // Large writes go straight to the file instead of through the buffer.
                try writeOut(bytes)
                return
            }
        }
        guard let source = bytes.baseAddress else { return }
        (buffer.baseAddress.unsafelyUnwrapped + buffered).copyMemory(from: source, byteCount: bytes.count)
        buffered += bytes.count
    }

    /// Appends `bytes`.
    package func append(_ bytes: [UInt8]) throws(SystemError) {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try append(raw) } }.get()
    }

    /// Replaces bytes already appended, starting at `offset`.
    package func overwrite(_ bytes: [UInt8], at offset: UInt64) throws(SystemError) {
        precondition(offset + UInt64(bytes.count) <= self.offset, "overwrite past the end of the output")
        if offset < flushedOffset {
            // The header is already on disk (the entry's data filled the buffer after it):
            // make the buffer's contents durable in order, then patch in place.
            try flush()
            try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try POSIXFile.write(fileDescriptor, raw, at: offset, path: path) }
            }.get()
        } else {
            let start = Int(offset - flushedOffset)
            for (index, byte) in bytes.enumerated() { buffer[start + index] = byte }
        }
    }

    /// Appends `count` bytes copied from `source` at `sourceOffset`, file to file; returns
    /// the number copied, fewer only when the source ends first.
    package func appendCopy(
        from source: Int32, at sourceOffset: UInt64, sourcePath: String, count: UInt64
    ) throws(SystemError) -> UInt64 {
        try flush()
        let copied = try POSIXFile.copy(
            from: source, at: sourceOffset, sourcePath: sourcePath,
            to: fileDescriptor, at: flushedOffset, destinationPath: path, count: count)
        flushedOffset += copied
        return copied
    }

    /// Writes out everything buffered.
    package func flush() throws(SystemError) {
        guard buffered > 0 else { return }
        try writeOut(UnsafeRawBufferPointer(rebasing: buffer[0..<buffered]))
        buffered = 0
    }

    /// Writes `bytes` at the end of the file, or skips them if they are all zeros and may
    /// be left as a hole. The bytes after the hole (at the least, the end records) give the
    /// file its full length.
    private func writeOut(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        if !(leavesHoles && Self.isZero(bytes)) {
            try POSIXFile.write(fileDescriptor, bytes, at: flushedOffset, path: path)
        }
        flushedOffset += UInt64(bytes.count)
    }

    /// Whether every byte of `bytes` is zero, compared with `memcmp` a page at a time.
    private static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var start = bytes.baseAddress else { return true }
        var remaining = bytes.count
        return zeroPage.withUnsafeBytes { zeros in
            while remaining > 0 {
                let count = min(remaining, zeros.count)
                if memcmp(start, zeros.baseAddress.unsafelyUnwrapped, count) != 0 { return false }
                start += count
                remaining -= count
            }
            return true
        }
    }

    private static let zeroPage = [UInt8](repeating: 0, count: 1 << 16)
}
