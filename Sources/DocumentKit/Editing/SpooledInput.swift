import Foundation

/// The bytes of a stream (standard input, a pipe) kept in a private file beside where they
/// will be used, for the operations that read a file more than once (an attach hashes it,
/// then stores it; an import recognises its format, then reads it). The file goes when
/// this object does: nothing stays behind, even when the operation fails.
///
/// Beside the destination, not in `/tmp`: that is on the same file system as what is
/// written, with its free space, and its clean-up is the one every write there has.
public final class SpooledInput {
    /// The file holding the stream's bytes, named as the caller asked.
    public let url: URL
    /// How many bytes the stream held.
    public let size: UInt64
    /// Their SHA-256, taken as they were written: an attach need not read them again.
    public let digest: ObjectDigest
    private let staging: StagingFolder

    /// Reads the open `descriptor` to its end into a file named `name` in a private folder
    /// beside `destination`. Messages name the stream `source`.
    public init(
        reading descriptor: Int32, named name: String, beside destination: URL, source: String = "standard input"
    ) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.contains("\0") else {
            throw DocumentKitError(.usage, "'\(name)' is not a file name: give a name without '/'")
        }
        let staging = try StagingFolder(beside: destination)
        let url = staging.url.appendingPathComponent(name)
        var hasher = ObjectHasher()
        let stream = ByteStream(descriptor: descriptor, name: source)
        let file = try staging.writing { try OpenFile.creatingExclusively(url.path) }
        try ProgressMeter.phase(.reading, counting: .read, totalBytes: nil) {
            try stream.stream { block in
                hasher.update(block)
                try staging.writing { try file.write(block) }
            }
        }
        (self.staging, self.url, self.size, self.digest) = (staging, url, hasher.byteCount, hasher.finalize())
    }
}
