import Foundation
import Testing

@testable import DocumentKit

/// The file helpers under the stored-zip writer and reader: range copies and output with holes.
@Suite struct POSIXFileTests {
    static let source = Data((0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })

    @Test(arguments: [false, true])
    func copiesRangesWithAndWithoutCopyFileRange(portable: Bool) throws {
        let directory = try TemporaryDirectory()
        try writeBytes(Self.source, to: directory.path("source"))
        let input = try POSIXFile.open(directory.path("source"), flags: O_RDONLY)
        defer { POSIXFile.close(input) }
        let output = try POSIXFile.open(directory.path("copy"), flags: O_RDWR | O_CREAT | O_EXCL)
        defer { POSIXFile.close(output) }
        // An odd range, to a different offset, larger than the 1 MiB fallback buffer.
        let (from, to, count): (UInt64, UInt64, UInt64) = (12_345, 7, 2_500_003)
        let copied =
            portable
            ? try POSIXFile.copyByReading(
                from: input, at: from, sourcePath: "source", to: output, at: to, destinationPath: "copy", count: count)
            : try POSIXFile.copy(
                from: input, at: from, sourcePath: "source", to: output, at: to, destinationPath: "copy", count: count)
        #expect(copied == count)
        let copy = try bytes(ofFile: directory.path("copy"))
        #expect(copy.count == Int(to + count))
        #expect(copy.dropFirst(Int(to)) == Self.source[Int(from)..<Int(from + count)])
        // A source that ends before the range does: what there was is copied, and said, not padded.
        #expect(
            try POSIXFile.copy(
                from: input, at: 3_000_000, sourcePath: "source", to: output, at: 0, destinationPath: "copy", count: 10)
                == 1)
        #expect(
            try POSIXFile.copyByReading(
                from: input, at: 3_000_000, sourcePath: "source", to: output, at: 0, destinationPath: "copy", count: 10)
                == 1)
        // A failed call says which, with its errno and file.
        expectSystemError(EBADF) {
            _ = try POSIXFile.copyByReading(
                from: -1, at: 0, sourcePath: "nowhere", to: output, at: 0, destinationPath: "copy", count: 10)
        }
    }

    @Test func leavesHolesOnlyInFilesThatStartedEmpty() throws {
        let directory = try TemporaryDirectory()
        let zeros = Data(count: 3 << 20)
        for (name, initial) in [("fresh", Data()), ("reused", Data(repeating: 0xFF, count: 4 << 20))] {
            let path = directory.path(name)
            try writeBytes(initial, to: path)
            let fd = try POSIXFile.open(path, flags: O_RDWR)
            defer { POSIXFile.close(fd) }
            let output = FileOutputBuffer(fileDescriptor: fd, path: path)
            try zeros.withUnsafeBytes { raw in Result { () throws(SystemError) in try output.append(raw) } }.get()
            try output.append([1, 2, 3])
            try output.flush()
            let written = try bytes(ofFile: path)
            // A file that held data gets real zeros over it, never stale bytes.
            #expect(written.prefix(zeros.count) == zeros, "\(name)")
            #expect(Array(written[zeros.count..<zeros.count + 3]) == [1, 2, 3], "\(name)")
            var status = stat()
            #expect(stat(path, &status) == 0)
            if name == "fresh" { #expect(status.st_blocks * 512 < 1 << 20, "the zeros should be a hole") }
        }
    }
}
