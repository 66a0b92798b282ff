import Foundation

/// A reference, inside a document's JSON, to bytes stored beside it: SwiftData's
/// `@Attribute(.externalStorage)` on a bundle.
///
/// In JSON it is `{"$blob": "<sha-256 hex>", "size": 1234, "mediaType": "image/png"}`, and
/// `"name": "photo.png"` when the name it was attached under is known (FORMAT.md §7): exports
/// name the blob's file after it.
/// The bytes live once in the bundle however many versions refer to them, and are read
/// only when asked for: whole (`data()`), or, for a blob larger than memory should hold,
/// in blocks (`stream(_:)`) or straight into a file (`write(to:replace:)`). A blob made
/// from a file (`init(contentsOf:mediaType:)`) is read in blocks too, when it is hashed
/// and when it is saved, so a 500 MB attachment never sits in memory.
///
/// ```swift
/// project.thumbnail = try BlobReference(contentsOf: pngURL, mediaType: "image/png")
/// let bytes = try project.thumbnail?.data()
/// try project.thumbnail?.write(to: copyURL)
/// ```
///
/// A reference is `Sendable`: its `file` is made with it and never changed, only read, and
/// what it reads from (a file, its own bytes, an opened `DocumentBundle`) is safe to read
/// from any thread.
public struct BlobReference: Codable, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The SHA-256 of the bytes.
    public let digest: ObjectDigest
    /// The number of bytes.
    public let size: UInt64
    /// The bytes' MIME type, e.g. `image/png`.
    public let mediaType: String
    /// The file name it was attached under (`photo.png`), when known: one path component
    /// (``isValidName(_:)``). Exports name the blob's file after it; nothing else depends on it.
    public let name: String?
    /// Where the bytes are; `nil` when decoded without a bundle to load them from.
    package let file: FileWrapper?

    /// A blob holding `data`, recorded under `name` when one is given. A name that is not
    /// one safe path component is refused (`usage`).
    public init(data: Data, mediaType: String, name: String?) throws {
        try Self.checkName(name)
        digest = .of(data)
        size = UInt64(data.count)
        self.mediaType = mediaType
        self.name = name
        let wrapper = FileWrapper(regularFileWithContents: data)
        wrapper.expectedDigest = digest
        file = wrapper
    }

    /// A blob holding `data`, without a name.
    public init(data: Data, mediaType: String) {
        digest = .of(data)
        size = UInt64(data.count)
        self.mediaType = mediaType
        name = nil
        let wrapper = FileWrapper(regularFileWithContents: data)
        wrapper.expectedDigest = digest
        file = wrapper
    }

    /// A blob holding the bytes of the file at `url`, which are hashed now and read again
    /// (and checked against that hash) when the document is saved, recorded under the
    /// file's name (`url.lastPathComponent`). A file name that is not one safe path
    /// component is refused (`usage`), before the file is read.
    public init(contentsOf url: URL, mediaType: String) throws {
        try self.init(contentsOf: url, mediaType: mediaType, name: url.lastPathComponent)
    }

    /// A blob holding the bytes of the file at `url`, recorded under `name` (`nil`: none).
    public init(contentsOf url: URL, mediaType: String, name: String?) throws {
        try Self.checkName(name)
        let wrapper = try FileWrapper(regularFileWithContentsOf: url)
        var hasher = ObjectHasher()
        try ProgressMeter.phase(.hashing, counting: .read, totalBytes: wrapper.fileSize) {
            try wrapper.streamContents { hasher.update($0) }
        }
        digest = hasher.finalize()
        size = hasher.byteCount
        self.mediaType = mediaType
        self.name = name
        wrapper.expectedDigest = digest
        file = wrapper
    }

    /// A blob holding the bytes of the file at `url`, already hashed as they were written
    /// there (``SpooledInput``): not read again until the save, which checks them against
    /// `digest` as it copies them.
    package init(hashedFile url: URL, digest: ObjectDigest, size: UInt64, mediaType: String, name: String?) throws {
        try Self.checkName(name)
        let wrapper = try FileWrapper(regularFileWithContentsOf: url)
        self.digest = digest
        self.size = size
        self.mediaType = mediaType
        self.name = name
        wrapper.expectedDigest = digest
        file = wrapper
    }

    /// Whether `name` may be recorded as a blob's name: one path component, as a name in a
    /// tree (FORMAT.md §6): not empty, `.` or `..`, no `/`, `\`, NUL or other control
    /// characters, at most 255 bytes of UTF-8.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && TreeObject.problem(withName: name) == nil
    }

    private static func checkName(_ name: String?) throws {
        guard let name, !isValidName(name) else { return }
        let problem =
            name.isEmpty ? "it is empty" : TreeObject.problem(withName: name) ?? "it is not one path component"
        throw DocumentKitError(.usage, "'\(OneLineText.escaping(name))' cannot name a blob: \(problem)")
    }

    /// The bytes, read from the bundle (and checked against the digest) when not in memory.
    public func data() throws -> Data {
        try contents().regularFileContents()
    }

    /// The bytes in blocks of at most 1 MiB, in order. A blob read from a bundle is
    /// checked against its digest as it goes, and one that does not match throws after
    /// its last block: use the blocks only once this returns.
    public func stream(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try contents().streamContents(body)
    }

    /// Writes the bytes to a new file at `url` in blocks, and moves it into place only
    /// once every byte is known to be the blob's; an existing file is refused
    /// (`cannotCreateOutput`) unless `replace`. Returns the number of bytes written.
    @discardableResult
    public func write(to url: URL, replace: Bool = false) throws -> UInt64 {
        try AtomicReplacement.writeFile(at: url, replace: replace) { file in try stream { try file.write($0) } }
    }

    private func contents() throws -> FileWrapper {
        guard let file else {
            throw DocumentKitError(
                .invalidDocument, "blob \(digest.short) has no contents to read (it was decoded without its bundle)")
        }
        return file
    }

    public var description: String { "\(mediaType), \(size) bytes, \(digest.short)" }

    private enum CodingKeys: String, CodingKey {
        case digest = "$blob"
        case size, mediaType, name
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let digest = try container.decode(ObjectDigest.self, forKey: .digest)
        let size = try container.decode(UInt64.self, forKey: .size)
        self.digest = digest
        self.size = size
        mediaType = try container.decodeIfPresent(String.self, forKey: .mediaType) ?? "application/octet-stream"
        // A name that is not a safe path component is ignored, never used: it came from a file.
        name = (try? container.decodeIfPresent(String.self, forKey: .name)).flatMap {
            $0.flatMap { Self.isValidName($0) ? $0 : nil }
        }
        file = decoder.documentContext?.objectSource.map { FileWrapper(object: digest, size: size, store: $0) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(digest, forKey: .digest)
        try container.encode(size, forKey: .size)
        try container.encode(mediaType, forKey: .mediaType)
        // Only when known: a reference without a name is written as before names existed.
        if let name, Self.isValidName(name) { try container.encode(name, forKey: .name) }
        (encoder.userInfo[.documentKitBlobCollector] as? BlobCollector)?.blobs.append(
            (self, DecodingErrorDescription.path(encoder.codingPath)))
    }

    public static func == (lhs: BlobReference, rhs: BlobReference) -> Bool {
        lhs.digest == rhs.digest && lhs.size == rhs.size && lhs.mediaType == rhs.mediaType && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

extension CodingUserInfoKey {
    package static let documentKitBlobCollector = CodingUserInfoKey(rawValue: "org.documentkit.blobCollector")!
    package static let documentKitContext = CodingUserInfoKey(rawValue: "org.documentkit.decodingContext")!
}
