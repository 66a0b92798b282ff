import Foundation

/// An open file descriptor that closes itself: the single owner of one `open(2)` result.
package final class OpenFile {
    package let descriptor: Int32
    package let path: String
    /// The file as messages name it: as the user named it, where that is known.
    package let name: String
    /// Where the next `write` goes: writes are positional, so reads never move it.
    private var writeOffset: UInt64 = 0

    /// Takes ownership of `descriptor`, an open file or folder at `path`; messages name it
    /// `name` (as the user typed it), by default `path`.
    package init(adopting descriptor: Int32, path: String, name: String? = nil) {
        self.descriptor = descriptor
        self.path = path
        self.name = name ?? path
    }

    deinit { close(descriptor) }

    /// Opens an existing file for reading.
    package static func forReading(_ path: String) throws -> OpenFile {
        try forReading(path, name: path)
    }

    /// Opens an existing file for reading; errors name it as `url.relativePath` (as the
    /// user typed it), not as the absolute path opened.
    package static func forReading(_ url: URL) throws -> OpenFile {
        try forReading(url.path, name: url.relativePath)
    }

    private static func forReading(_ path: String, name: String) throws -> OpenFile {
        let fd = SystemCall.open(path, O_RDONLY)
        guard fd >= 0 else { throw DocumentKitError.system("cannot open", path: name, errno: errno) }
        return OpenFile(adopting: fd, path: path, name: name)
    }

    /// Opens an existing file for reading and writing; `nil` (with `errno` set) when it
    /// cannot be, for callers that then take another way. Messages name it `name`.
    package static func forUpdating(_ path: String, name: String) -> OpenFile? {
        let fd = SystemCall.open(path, O_RDWR)
        return fd >= 0 ? OpenFile(adopting: fd, path: path, name: name) : nil
    }

    /// Creates a new file that must not exist yet (`O_EXCL`, which also refuses to follow
    /// a symbolic link planted at `path`), private to the user (0600) by default so no one
    /// reads a half-written file before its final permissions are set.
    package static func creatingExclusively(_ path: String, mode: mode_t = 0o600) throws -> OpenFile {
        let fd = SystemCall.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw DocumentKitError.system("cannot create", path: path, errno: errno) }
        return OpenFile(adopting: fd, path: path)
    }

    /// Opens the folder at `path`, to create, rename and remove files in it by descriptor
    /// and to flush its entries (`fsync` of a folder makes renames in it durable).
    package static func folder(_ path: String) throws -> OpenFile {
        let fd = SystemCall.open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw DocumentKitError.system("cannot open folder", path: path, errno: errno) }
        return OpenFile(adopting: fd, path: path)
    }

    /// Takes an exclusive `flock(2)` on the file if no one else holds one, without waiting.
    package func tryLock() -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Releases a lock taken with ``tryLock()`` before the file is closed.
    package func unlock() {
        flock(descriptor, LOCK_UN)
    }

    /// The file's status.
    package func status() throws -> stat {
        var info = stat()
        guard SystemCall.retrying({ fstat(descriptor, &info) }) == 0 else {
            throw DocumentKitError.system("cannot stat", path: name, errno: errno)
        }
        return info
    }

    /// Flushes the file's data and metadata to stable storage.
    package func synchronize() throws {
        guard SystemCall.retrying({ fsync(descriptor) }) == 0 else {
            throw DocumentKitError.system("cannot flush to disk", path: name, errno: errno)
        }
    }

    /// Cuts the file to `length` bytes and flushes it; whether both succeeded.
    package func truncate(to length: UInt64) -> Bool {
        SystemCall.retrying({ ftruncate(descriptor, off_t(length)) }) == 0
            && SystemCall.retrying({ fsync(descriptor) }) == 0
    }

    /// Writes all of `buffer` after what this object wrote before (`POSIXFile.write`).
    package func write(_ buffer: UnsafeRawBufferPointer) throws {
        do {
            try POSIXFile.write(descriptor, buffer, at: writeOffset, path: name)
        } catch {
            throw DocumentKitError(error)
        }
        writeOffset += UInt64(buffer.count)
    }

    package func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Reads up to `count` bytes from the start of the file: enough to recognise it.
    package func readPrefix(_ count: Int) throws -> Data {
        var data = Data(count: count)
        let read = try data.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try POSIXFile.read(descriptor, into: buffer, at: 0, path: name) }
        }.mapError(DocumentKitError.init).get()
        return data.prefix(read)
    }

    /// Reads the whole file, refusing one larger than `limit` bytes.
    package func readAll(limit: Int) throws -> Data {
        var data = Data()
        // Sized once from the file's length: growing block by block would copy the whole
        // document each time the buffer doubled. A file already past the limit is refused
        // before a byte is read.
        if let size = try? status().st_size, size > limit {
            throw DocumentKitError(.malformedInput, "file is larger than the limit of \(limit) bytes", path: name)
        }
        if let size = try? status().st_size, size > 0 { data.reserveCapacity(Int(size)) }
        try stream(blockSize: 1 << 16) { block in
            guard data.count + block.count <= limit else {
                throw DocumentKitError(.malformedInput, "file is larger than the limit of \(limit) bytes", path: name)
            }
            data.append(contentsOf: block)
        }
        return data
    }

    /// Streams the whole file through `body` in blocks of `blockSize` bytes.
    package func stream(blockSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        var offset: UInt64 = 0
        while true {
            let count: Int
            do {
                count = try POSIXFile.read(descriptor, into: block, at: offset, path: name)
            } catch {
                throw DocumentKitError(error)
            }
            if count > 0 {
                try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
                ProgressMeter.advance(.read, by: count)
            }
            if count < blockSize { return }
            offset += UInt64(count)
        }
    }
}
