import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A node of a document's file tree: a folder of named children, or a regular file whose
/// contents are loaded only when asked for.
///
/// Like Foundation's `FileWrapper` on Apple platforms. A file read from a bundle knows its
/// digest, so saving it again costs nothing: the bundle keeps the object it already has.
///
/// ```swift
/// let root = FileWrapper(directoryWithFileWrappers: [
///     "document.json": FileWrapper(regularFileWithContents: json),
///     "cover.png": try FileWrapper(regularFileWithContentsOf: coverURL),
/// ])
/// ```
public final class FileWrapper {
    package enum Contents {
        case directory([String: FileWrapper])
        case data(Data)
        case file(URL, size: UInt64)
        case object(ObjectDigest, size: UInt64, store: any ObjectSource)
        /// An entry of a bundle's zip as it is stored (a history segment, an object stored
        /// alone with its codec's bytes), read from the bundle's file when it is needed.
        case entry(StoredZipEntry, in: StoredZipReader)
        /// Bytes another file's reads pass through (a push's digest tap), `size` of them.
        case stream(size: UInt64, (_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
    }

    package var contents: Contents
    /// The digest the bytes must have (set by a blob reference), checked when saving so a
    /// file that changed after it was attached is refused rather than stored under a lie.
    package var expectedDigest: ObjectDigest?

    /// A regular file holding `data`.
    public init(regularFileWithContents data: Data) {
        contents = .data(data)
    }

    /// A regular file whose bytes stay on disk at `url` until they are needed.
    public init(regularFileWithContentsOf url: URL) throws {
        let info = try SystemCall.status(url.path, failing: "cannot read", reportedAs: url.relativePath)
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentKitError(.malformedInput, "not a regular file", path: url.relativePath)
        }
        contents = .file(url, size: UInt64(info.st_size))
    }

    /// A folder holding `children` by name.
    public init(directoryWithFileWrappers children: [String: FileWrapper]) {
        contents = .directory(children)
    }

    package init(object digest: ObjectDigest, size: UInt64, store: any ObjectSource) {
        contents = .object(digest, size: size, store: store)
    }

    /// A regular file of `size` bytes that `stream` passes to its body in blocks, each time
    /// it is read.
    package init(
        size: UInt64, streaming stream: @escaping (_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) {
        contents = .stream(size: size, stream)
    }

    /// A regular file holding the stored bytes of `entry` of `zip`, read when needed.
    package init(entry: StoredZipEntry, in zip: StoredZipReader) {
        contents = .entry(entry, in: zip)
    }

    /// Whether this is a folder.
    public var isDirectory: Bool {
        if case .directory = contents { return true }
        return false
    }

    /// Whether this is a regular file.
    public var isRegularFile: Bool { !isDirectory }

    /// A folder's children by name; `nil` for a regular file.
    public var fileWrappers: [String: FileWrapper]? {
        if case .directory(let children) = contents { return children }
        return nil
    }

    /// The child at a `/`-separated path below this folder.
    public subscript(path: String) -> FileWrapper? {
        var node: FileWrapper? = self
        for component in path.split(separator: "/") {
            node = node?.fileWrappers?[String(component)]
        }
        return node
    }

    /// Adds or replaces a child of this folder.
    public func setFileWrapper(_ child: FileWrapper?, named name: String) {
        guard case .directory(var children) = contents else { return }
        children[name] = child
        contents = .directory(children)
    }

    /// A regular file's size in bytes, known without reading it.
    public var fileSize: UInt64? {
        switch contents {
        case .directory: nil
        case .data(let data): UInt64(data.count)
        case .file(_, let size), .object(_, let size, _): size
        case .entry(let entry, _): entry.size
        case .stream(let size, _): size
        }
    }

    /// The digest when it is known without reading (a file read from a bundle).
    public var knownDigest: ObjectDigest? {
        if case .object(let digest, _, _) = contents { return digest }
        return nil
    }

    /// A regular file's bytes, read now if they were not in memory.
    public func regularFileContents() throws -> Data {
        switch contents {
        case .directory:
            throw DocumentKitError(.invalidDocument, "a folder has no file contents")
        case .data(let data):
            return data
        case .file(let url, _):
            return try OpenFile.forReading(url.path).readAll(limit: Int.max)
        case .object(let digest, _, let store):
            return try store.objectData(digest)
        case .entry(let entry, let zip):
            return try zip.readData(entry)
        case .stream(_, let stream):
            var data = Data()
            try stream { data.append(contentsOf: $0) }
            return data
        }
    }

    /// Streams a regular file's bytes through `body` without holding them all in memory.
    public func streamContents(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch contents {
        case .directory:
            throw DocumentKitError(.invalidDocument, "a folder has no file contents")
        case .data(let data):
            try data.withUnsafeBytes { try body($0) }
        case .file(let url, _):
            try OpenFile.forReading(url.path).stream(body)
        case .object(let digest, _, let store):
            try store.streamObject(digest, body)
        case .entry(let entry, let zip):
            try zip.stream(entry, body)
        case .stream(_, let stream):
            try stream(body)
        }
    }
}
