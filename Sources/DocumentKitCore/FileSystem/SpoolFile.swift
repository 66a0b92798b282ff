import Foundation

/// Bytes set aside on disk instead of in memory, in a file nobody else can open: created
/// private (0600) in a temporary folder under a random name and removed
/// at once, so that nothing stays behind however the process ends. An HTML export keeps its framed
/// pages here between making them and writing them: a page for each of 100,000 versions
/// is some 300 MB, which memory should not hold.
package final class SpoolFile {
    private let file: OpenFile
    /// How many bytes were set aside.
    package private(set) var size: UInt64 = 0

    /// Creates the file in `folder` (a program's is its configuration's `temporaryFolder`).
    package init(in folder: String) throws {
        var attempt = 0
        while true {
            let path = "\(folder)/.documentkit-spool-\(AtomicReplacement.randomSuffix())"
            do {
                file = try OpenFile.creatingExclusively(path)
                unlink(path)
                return
            } catch let error as DocumentKitError {
                attempt += 1
                if access(path, F_OK) == 0, attempt < 16 { continue }
                throw DocumentKitError(
                    .cannotCreateOutput, "cannot create a temporary file: \(error.message)", path: folder)
            }
        }
    }

    /// Sets `data` aside; returns where it is, for ``stream(_:_:)``.
    package func append(_ data: Data) throws -> Range<UInt64> {
        let start = size
        try file.write(data)
        size += UInt64(data.count)
        return start..<size
    }

    /// Passes the bytes of `range`, set aside before, to `body` in blocks of at most 64 KiB.
    package func stream(_ range: Range<UInt64>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { block.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = UnsafeMutableRawBufferPointer(
                rebasing: block[0..<Int(min(UInt64(block.count), range.upperBound - offset))])
            let count: Int
            do {
                count = try POSIXFile.read(file.descriptor, into: wanted, at: offset, path: file.name)
            } catch {
                throw DocumentKitError(error)
            }
            guard count == wanted.count else {
                throw DocumentKitError(.ioError, "a temporary file ended early", path: file.name)
            }
            try body(UnsafeRawBufferPointer(wanted))
            offset += UInt64(count)
        }
    }
}
