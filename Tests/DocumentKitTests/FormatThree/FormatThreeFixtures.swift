import Foundation
import SampleProject

@testable import DocumentKit

/// Format-3 bundles for tests, made through the library in one process: a new bundle in
/// format 3, then one-title saves (`docctl set` keeps a format-3 bundle in format 3).
enum FormatThreeFixtures {
    static let created = Date(timeIntervalSince1970: 1_767_225_600)

    /// The metadata of a save that writes format 3.
    static var metadata: SaveMetadata {
        var metadata = SaveMetadata(author: "test", created: created)
        metadata.formatVersion = 3
        return metadata
    }

    /// A project of `taskCount` tasks at `url`, in format 3, with `saves` one-title saves
    /// after the first version.
    @discardableResult
    static func project(at url: URL, taskCount: Int = 50, saves: Int) throws -> URL {
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: taskCount, seed: 3),
            metadata: metadata)
        try addSaves(saves, to: url, taskCount: taskCount)
        return url
    }

    /// Adds `saves` one-title saves to the bundle at `url`.
    static func addSaves(_ saves: Int, to url: URL, taskCount: Int = 50, from first: Int = 1) throws {
        for save in first..<(first + saves) {
            let path = try JSONPath(parsing: "tasks[\(save % taskCount)].title")
            _ = try BundleEdits.set(.string("Renamed in save \(save)"), at: path, in: url, metadata: metadata)
        }
    }

    /// Two copies of one project in `directory`: `ours.dkproj`, of `taskCount` tasks with
    /// `saves` one-title saves, and `theirs.dkproj`, a copy of it `ahead` saves further on
    /// (saves numbered from `from`).
    static func twoCopies(in directory: TemporaryDirectory, taskCount: Int, saves: Int, ahead: Int, from: Int) throws
        -> (ours: URL, theirs: URL)
    {
        let ours = try project(
            at: directory.url.appendingPathComponent("ours.dkproj"), taskCount: taskCount, saves: saves)
        let theirs = directory.url.appendingPathComponent("theirs.dkproj")
        try FileManager.default.copyItem(at: ours, to: theirs)
        try addSaves(ahead, to: theirs, from: from)
        return (ours, theirs)
    }

    /// Flips a byte of a history segment of the bundle at `url`, `offset` bytes into its
    /// data (past the 4-byte magic: inside its first block); returns the segment's name.
    @discardableResult
    static func damageSegment(of url: URL, newest: Bool, offset: Int) throws -> String {
        let bundle = try DocumentBundle(contentsOf: url)
        guard let segments = bundle.history?.segments, let segment = newest ? segments.last : segments.first,
            let entry = bundle.zip.entry(named: segment.name)
        else {
            throw DocumentKitError(.notFound, "the bundle has no history segment", path: url.path)
        }
        var bytes = try Data(contentsOf: url)
        bytes[Int(entry.dataOffset) + offset] ^= 0x5A
        try bytes.write(to: url)
        return segment.name
    }

    /// Rewrites the bundle at `url` with its newest segment's items passed through `edit`
    /// (the manifest and every other entry as they were): a history another writer made.
    static func rewriteNewestSegment(of url: URL, _ edit: ([HistorySegment.Item]) throws -> [HistorySegment.Item])
        throws
    {
        let bundle = try DocumentBundle(contentsOf: url)
        guard let segment = bundle.history?.segments.last else {
            throw DocumentKitError(.notFound, "the bundle has no history segment", path: url.path)
        }
        var builder = HistorySegment.Builder(firstPlace: segment.reader.firstPlace)
        for item in try edit(try segment.reader.items()) { try builder.append(item) }
        let data = try builder.finish()
        let copy = url.deletingLastPathComponent().appendingPathComponent("rewritten.tmp")
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw DocumentKitError(.cannotCreateOutput, "cannot create it", path: copy.path) }
        defer { close(descriptor) }
        let zip = StoredZipWriter(fileDescriptor: descriptor, path: copy.path)
        for entry in bundle.zip.entries {
            if entry.name == segment.name {
                try zip.addEntry(name: entry.name, data: data)
            } else {
                try zip.copyEntry(entry, from: bundle.zip)
            }
        }
        try zip.finish()
        guard rename(copy.path, url.path) == 0 else {
            throw DocumentKitError(.cannotCreateOutput, "cannot replace it", path: url.path)
        }
    }
}
