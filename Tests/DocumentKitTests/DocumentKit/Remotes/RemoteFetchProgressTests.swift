import Foundation
import Testing

@testable import DocumentKit

/// What a clone or a pull from a remote shows while it fetches (issue 23: an S3 clone drew
/// nothing for 4 s): a `reading` phase that counts the remote's bytes once each, as they
/// arrive, not the checks that read them again.
@Suite struct RemoteFetchProgressTests {
    @Test func aCloneReportsTheBytesItFetchesOnce() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let root = directory.url.appendingPathComponent("remote")
        _ = try RemotePusher.push(bundle, to: FolderRemoteStore(root: root))
        // Every content file of the remote's object but its manifest.json and mimetype (read
        // first, with the inventory, and not counted), each fetched once.
        var contentBytes: UInt64 = 0
        let files = try #require(
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]))
        for case let file as URL in files
        where file.path.contains("/content/") && !["manifest.json", "mimetype"].contains(file.lastPathComponent) {
            let values = try file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values.isRegularFile == true { contentBytes += UInt64(values.fileSize ?? 0) }
        }
        #expect(contentBytes > 0)

        let collected = Protected<[WorkProgress]>([])
        _ = try WorkProgress.reporting(to: { report in collected.mutate { $0.append(report) } }) {
            try RemoteFetcher.clone(
                FolderRemoteStore(root: root), to: directory.url.appendingPathComponent("copy.dkproj"))
        }
        let reports = collected.value
        #expect(
            reports.first?.phase == .reading && reports.first?.completedBytes == 0, "it shows the fetch from its start")
        let reading = reports.filter { $0.phase == .reading }
        // The storage root's few small files (its declaration and layout) may count too.
        let fetched = try #require(reading.last?.completedBytes)
        #expect(
            fetched >= contentBytes && fetched < contentBytes + 2_048,
            "each byte once: \(fetched) for \(contentBytes) of content")
        #expect(reports.last?.phase == .reading, "the bundle's write is a phase inside it")
        #expect(reports.contains { $0.phase == .writing })
    }
}
