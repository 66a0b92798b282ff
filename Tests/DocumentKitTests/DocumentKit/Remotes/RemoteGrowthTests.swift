import Foundation
import Testing

@testable import DocumentKit

/// Issue 25, item 3: a remote grows with its content. A push of one version adds one OCFL
/// version holding one small segment and a manifest, and an inventory that names each
/// version's few files: the remote grows by the same few kilobytes a push over the last 60
/// of 120 pushes as over the first 60 (the layout of one OCFL version per bundle version grew by a copy of the whole
/// inventory each time, as the square of the pushes), and a clone of it is the project.
@Suite struct RemoteGrowthTests {
    /// The bytes of the files below `folder` (a folder's own size is the file system's).
    private func bytes(below folder: URL) throws -> Int {
        var total = 0
        for case let file as URL in FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])!
        {
            let values = try file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values.isRegularFile == true { total += values.fileSize ?? 0 }
        }
        return total
    }

    @Test func eachPushOfOneVersionAddsTheSameFewKilobytes() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 300, saves: 200)
        let root = directory.url.appendingPathComponent("remote")
        _ = try RemotePusher.push(url, to: FolderRemoteStore(root: root))
        var sizes: [Int] = []
        var sent = 0
        for push in 1...120 {
            try FormatThreeFixtures.addSaves(1, to: url, taskCount: 300, from: 200 + push)
            let result = try RemotePusher.push(url, to: FolderRemoteStore(root: root))
            #expect(
                result.result == .pushed && result.newVersionIDs.count == 1 && result.newVersions == ["v\(push + 1)"])
            sent += Int(result.bytesSent)
            sizes.append(try bytes(below: root))
        }
        // Over halves of the run, so that merges (a few KiB copied now and then) even out;
        // growth as the square of the pushes would make the second half's three times the first's.
        let early = (sizes[59] - sizes[0]) / 59
        let late = (sizes[119] - sizes[59]) / 60
        #expect(
            late < 8_192 && late < early * 3 / 2,
            "the remote grew by \(early) bytes a push over pushes 1 to 60, and by \(late) over 60 to 120")
        #expect(sent < 120 * 4_096, "\(sent) bytes sent by 120 one-version pushes")

        let clone = directory.url.appendingPathComponent("clone.dkproj")
        _ = try RemoteFetcher.clone(FolderRemoteStore(root: root), to: clone)
        let (copy, original) = try (DocumentBundle(contentsOf: clone), DocumentBundle(contentsOf: url))
        #expect(try copy.manifest.versions.map(\.id) == original.manifest.versions.map(\.id))
        #expect(try copy.headDocumentData() == original.headDocumentData())
        #expect(try BundleValidator.validate(clone, deep: true).findings.isEmpty)
    }
}
