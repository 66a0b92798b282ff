import Foundation

extension AtomicReplacement {
    /// Writes a new file at `url` through `write`, which is handed the open temporary file;
    /// moves it into place (with the umask's permissions) only when `write` returns, and
    /// leaves nothing behind when it throws. An existing file, or a symbolic link, at `url`
    /// is refused (`cannotCreateOutput`) unless `replace`, and never followed. Returns the
    /// bytes written.
    package static func writeFile(
        at url: URL, replace: Bool, flushing: Bool = true, _ write: (CountingFile) throws -> Void
    ) throws -> UInt64 {
        let output = try AtomicReplacement(destination: url, followingLinks: false)
        let file = CountingFile(output.file)
        try write(file)
        if replace {
            try output.commit(mode: defaultMode(), flushing: flushing)
        } else {
            try output.commitWithoutReplacing(mode: defaultMode())
        }
        return file.written
    }

    /// An open file that counts what is written to it.
    package final class CountingFile {
        private let file: OpenFile
        package private(set) var written: UInt64 = 0

        init(_ file: OpenFile) { self.file = file }

        package func write(_ block: UnsafeRawBufferPointer) throws {
            try file.write(block)
            written += UInt64(block.count)
        }
    }
}
