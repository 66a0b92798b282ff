import Foundation

/// An open file descriptor that closes itself: the single owner of one `open(2)` result.
final class OpenFile {
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens an existing file for reading.
    static func forReading(_ path: String) throws -> OpenFile {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentKitError.system("cannot open", path: path, errno: errno) }
        return OpenFile(descriptor: fd, path: path)
    }

    /// Creates a new file that must not exist yet (`O_EXCL`, which also refuses to follow
    /// a symbolic link planted at `path`), private to the user (0600) by default so no one
    /// reads a half-written file before its final permissions are set.
    static func creatingExclusively(_ path: String, mode: mode_t = 0o600) throws -> OpenFile {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw DocumentKitError.system("cannot create", path: path, errno: errno) }
        return OpenFile(descriptor: fd, path: path)
    }

    /// The file's status.
    func status() throws -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw DocumentKitError.system("cannot stat", path: path, errno: errno) }
        return info
    }

    /// Flushes the file's data and metadata to stable storage.
    func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw DocumentKitError.system("cannot flush to disk", path: path, errno: errno) }
    }

    /// Writes all of `buffer` at the current offset, retrying short writes and EINTR.
    func write(_ buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw DocumentKitError.system("cannot write", path: path, errno: errno)
            }
            offset += written
        }
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            guard buffer.count > 0 else { return }
            try write(buffer)
        }
    }

    /// Reads the whole file in blocks, refusing one larger than `limit` bytes.
    func readAll(limit: Int) throws -> Data {
        var data = Data()
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentKitError.system("cannot read", path: path, errno: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: block[0..<count])
            if data.count > limit {
                throw DocumentKitError(.malformedInput, "file is larger than the limit of \(limit) bytes", path: path)
            }
        }
    }

    /// Streams the whole file through `body` in blocks of `blockSize` bytes.
    func stream(blockSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = read(descriptor, block.baseAddress, blockSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentKitError.system("cannot read", path: path, errno: errno)
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
        }
    }
}
