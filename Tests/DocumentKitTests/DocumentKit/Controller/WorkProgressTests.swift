import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Long operations report their progress to the handler bound around them, phase by
/// phase, in bytes: each phase from 0 to a total it knew at its start, never backwards.
@Suite struct WorkProgressTests {
    private let metadata = SaveMetadata(
        author: "ada", message: "progress", created: Date(timeIntervalSince1970: 1_767_225_600))
    private static let blobSize = 24 << 20

    /// Every report `body` makes, in order.
    private func reports(_ body: () throws -> Void) rethrows -> [WorkProgress] {
        let collected = Protected<[WorkProgress]>([])
        try WorkProgress.reporting(to: { report in collected.mutate { $0.append(report) } }, during: body)
        return collected.value
    }

    /// The phases `reports` went through, each checked: it starts at 0 and ends at its
    /// total, never goes back, and is reported at most about a thousand times.
    private func phases(_ reports: [WorkProgress], sourceLocation: SourceLocation = #_sourceLocation) -> [(
        WorkProgress.Phase, UInt64?, UInt64
    )] {
        var result: [(WorkProgress.Phase, UInt64?, UInt64)] = []
        var index = 0
        while index < reports.count {
            let first = reports[index]
            #expect(
                first.completedBytes == 0, "\(first.phase) starts at \(first.completedBytes)",
                sourceLocation: sourceLocation)
            var end = index
            while end + 1 < reports.count, reports[end + 1].phase == first.phase,
                reports[end + 1].completedBytes >= reports[end].completedBytes
            {
                end += 1
            }
            let last = reports[end]
            #expect(
                last.completedBytes == last.totalBytes,
                "\(first.phase) ends at \(last.completedBytes) of \(String(describing: last.totalBytes))",
                sourceLocation: sourceLocation)
            #expect(
                end - index <= 1_100, "\(first.phase) reported \(end - index + 1) times", sourceLocation: sourceLocation
            )
            result.append((first.phase, first.totalBytes, last.completedBytes))
            index = end + 1
        }
        return result
    }

    private func newBundle(in directory: TemporaryDirectory, formatVersion: Int = BundleManifest.currentFormatVersion)
        throws -> URL
    {
        let url = directory.url.appendingPathComponent("p.dkproj")
        _ = try DocumentController<Project>(newDocument: Project(name: "Progress"), at: url).save(
            Project(name: "Progress"), metadata: metadata(formatVersion))
        #expect(try DocumentBundle(contentsOf: url).formatVersion == formatVersion)
        return url
    }

    /// The metadata of a save in `formatVersion`.
    private func metadata(_ formatVersion: Int) -> SaveMetadata {
        var metadata = metadata
        metadata.formatVersion = formatVersion
        return metadata
    }

    @Test(arguments: [2, 3]) func attachHashesThenWritesWithTotalsKnownAtTheStart(formatVersion: Int) throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory, formatVersion: formatVersion)
        let file = directory.url.appendingPathComponent("big.bin")
        try Fixtures.noise(Self.blobSize).write(to: file)
        let seen = try phases(
            reports {
                _ = try BundleEdits.attach(
                    file, at: JSONPath(parsing: "thumbnail"), mediaType: "application/octet-stream", in: url,
                    metadata: metadata(formatVersion))
            })
        #expect(seen.map(\.0) == [.hashing, .writing])
        #expect(seen[0].1 == UInt64(Self.blobSize) && seen[0].2 == UInt64(Self.blobSize))
        // The write's estimate (the blob and the document) is what it wrote, within 1%.
        let writing = try #require(seen[1].1)
        #expect(writing >= UInt64(Self.blobSize))
        #expect(Double(seen[1].2) / Double(writing) < 1.01)
    }

    /// A save announces the total of the write it makes: when the bundle is due to be
    /// compacted, the whole rewrite, not the append it then does not make (issue 23: a
    /// small `set` drew a bar whose total jumped from 21.1 KB to 128 KB).
    @Test(arguments: [2, 3]) func aSaveThatRewritesTheBundleAnnouncesTheRewritesTotal(formatVersion: Int) throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory, formatVersion: formatVersion)
        var rewrites = 0
        for round in 0..<4 {
            // An incompressible summary of 256 KB: each save supersedes the last one's.
            let summary = Fixtures.noise(128 << 10, seed: UInt64(round + 1)).map { String(format: "%02x", $0) }.joined()
            let before = try #require(
                try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)
            let seen = try phases(
                reports {
                    _ = try BundleEdits.set(
                        .string(summary), at: JSONPath(parsing: "summary"), in: url, metadata: metadata(formatVersion))
                })
            let after = try #require(
                try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)
            if before != after { rewrites += 1 }
            #expect(seen.map(\.0) == [.writing], "round \(round)")
            let announced = try #require(seen.first?.1)
            #expect(
                Double(seen[0].2) / Double(announced) < 1.05,
                "round \(round): wrote \(seen[0].2) of \(announced) announced")
        }
        #expect(rewrites >= 1, "some save compacted the bundle")
    }

    @Test func exportImportValidateAndPruneReportTheirPhases() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        let file = directory.url.appendingPathComponent("big.bin")
        try Fixtures.noise(Self.blobSize).write(to: file)
        _ = try BundleEdits.attach(
            file, at: JSONPath(parsing: "thumbnail"), mediaType: "application/octet-stream", in: url, metadata: metadata
        )
        _ = try BundleEdits.set(.string("Renamed"), at: JSONPath(parsing: "name"), in: url, metadata: metadata)

        let archive = directory.url.appendingPathComponent("p.tar.gz")
        let export = try phases(
            reports { _ = try BundleExporter.export(url, format: .tarGzip, to: archive, replace: false) })
        #expect(export.map(\.0) == [.writing])
        #expect(export[0].1 == export[0].2 && export[0].2 > UInt64(Self.blobSize))

        let imported = directory.url.appendingPathComponent("imported.dkproj")
        let `import` = try phases(
            reports {
                _ = try BundleImporter.importDocument(
                    from: archive, to: imported, type: Project.self, metadata: metadata)
            })
        #expect(`import`.map(\.0) == [.reading, .hashing, .writing])
        let archiveSize = try #require(
            try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber
        ).uint64Value
        #expect(`import`[0].1 == archiveSize && `import`[0].2 == archiveSize)
        #expect(`import`[1].1 == UInt64(Self.blobSize))

        let validate = try phases(reports { _ = try BundleValidator.validate(url, deep: true) })
        #expect(validate.map(\.0) == [.verifying])
        let verifying = try #require(validate[0].1)
        #expect(
            verifying > UInt64(Self.blobSize) && Double(validate[0].2) / Double(verifying) < 1.01,
            "read \(validate[0].2) of \(verifying)")
        #expect(try phases(reports { _ = try BundleValidator.validate(url, deep: false) }).isEmpty)

        let prune = try phases(reports { _ = try BundlePruner.prune(url, keep: 1) })
        #expect(prune.map(\.0) == [.writing])
        let rewrite = try #require(prune[0].1)
        #expect(rewrite > UInt64(Self.blobSize) && Double(prune[0].2) / Double(rewrite) < 1.01)
    }

    @Test func asyncOperationsReportFromTheThreadTheyRunOn() async throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        let output = directory.url.appendingPathComponent("out.zip")
        let collected = Protected<[WorkProgress]>([])
        try await WorkProgress.reporting(to: { report in collected.mutate { $0.append(report) } }) {
            _ = try await BundleExporter.export(url, format: .zip, to: output, replace: false)
        }
        #expect(collected.value.map(\.phase) == [.writing, .writing])
        #expect(collected.value.last?.completedBytes == collected.value.last?.totalBytes)
    }

    @Test func withoutAHandlerNothingIsReportedAndWorkIsTheSame() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        #expect(ProgressMeter.current == nil)
        let outside = try BundleValidator.validate(url, deep: true)
        let inside = try WorkProgress.reporting(to: { _ in }) { try BundleValidator.validate(url, deep: true) }
        #expect(outside.findings.isEmpty && inside.findings.isEmpty)
    }
}
