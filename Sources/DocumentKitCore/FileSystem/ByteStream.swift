import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A descriptor read or written in sequence, such as standard input or output, which may be
/// a pipe: unlike ``OpenFile``, whose I/O is positional, it has no offsets, and it does not
/// own the descriptor (standard input stays open when it is done with).
package struct ByteStream: Sendable {
    package let descriptor: Int32
    /// The stream as messages name it: `standard input`, `standard output`.
    package let name: String

    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    package static let standardInput = ByteStream(descriptor: STDIN_FILENO, name: "standard input")
    package static let standardOutput = ByteStream(descriptor: STDOUT_FILENO, name: "standard output")

    /// Writes all of `bytes`, retrying on `EINTR` and looping over short writes to a pipe.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress.unsafelyUnwrapped + done, bytes.count - done)
            if count > 0 {
                done += count
            } else if count < 0, errno != EINTR {
                throw DocumentKitError.system("cannot write", path: name, errno: errno)
            }
        }
        ProgressMeter.advance(.written, by: bytes.count)
    }

    package func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Streams everything up to the end of the stream through `body`, in blocks of at most
    /// `blockSize` bytes.
    package func stream(blockSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = systemRead(descriptor, block.baseAddress.unsafelyUnwrapped, blockSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentKitError.system("cannot read", path: name, errno: errno)
            }
            ProgressMeter.advance(.read, by: count)
            try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
        }
    }

    /// Everything up to the end of the stream, refused past `limit` bytes.
    package func readAll(limit: Int) throws -> Data {
        var data = Data()
        try stream(blockSize: 1 << 16) { block in
            guard data.count + block.count <= limit else {
                throw DocumentKitError(.malformedInput, "more than the limit of \(limit) bytes", path: name)
            }
            data.append(contentsOf: block)
        }
        return data
    }
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }
