import Foundation
import Testing

@testable import DocumentKit

/// Manifests and trees that lie, read through the library: each is refused quickly, as
/// malformed input located in the file, instead of hanging, overflowing or being believed.
@Suite struct BundleLiesTests {
    static func corpus() throws -> (TemporaryDirectory, URL) {
        let directory = try TemporaryDirectory("BundleLiesTests")
        return (directory, try HostileCorpus.build(["bundles"], in: directory))
    }

    static func malformed(
        _ body: () throws -> Void, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: DocumentKitError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.exitStatus == 65, sourceLocation: sourceLocation)
        #expect(
            error?.description.contains(fragment) == true, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    /// 49 tree objects, each naming the one below twice: 2^48 paths. Measured, not built.
    @Test func aTreeOfSharedSubtreesIsMeasuredBeforeItIsBuilt() throws {
        let (directory, corpus) = try Self.corpus()
        let start = Date()
        let bundle = try DocumentBundle(contentsOf: corpus.appendingPathComponent("tree-shared-subtree-bomb.dkproj"))
        Self.malformed(
            { _ = try bundle.tree(of: bundle.headVersion) },
            containing: "the version's tree holds more than 1000000 files and folders")
        let report = try BundleValidator.validate(corpus.appendingPathComponent("tree-shared-subtree-bomb.dkproj"))
        #expect(report.findings.map(\.code) == ["tree.too-large"])
        #expect(Date().timeIntervalSince(start) < 10)
        // Every path counts, files and folders: the head of the control holds
        // document.json, blobs and one blob.
        let control = corpus.appendingPathComponent("control-built.dkproj")
        var limits = BundleLimits.default
        limits.maxTreeEntries = 2
        let small = try DocumentBundle(contentsOf: control, limits: limits)
        Self.malformed({ _ = try small.tree(of: small.headVersion) }, containing: "holds more than 2 files and folders")
        limits.maxTreeEntries = 3
        let exact = try DocumentBundle(contentsOf: control, limits: limits)
        #expect(try exact.tree(of: exact.headVersion).fileWrappers?.keys.sorted() == ["blobs", "document.json"])
        withExtendedLifetime(directory) {}
    }

    @Test func aVersionNameDoesNotWalkRoundACycleOfParents() throws {
        let (directory, corpus) = try Self.corpus()
        let bundle = try DocumentBundle(contentsOf: corpus.appendingPathComponent("parents-cycle.dkproj"))
        #expect(try bundle.version(named: "head~1").number == 1)
        // Two versions hold at most one step back, whatever version 1 says its parent is.
        #expect(throws: DocumentKitError.self) { try bundle.version(named: "head~2") }
        let error = #expect(throws: DocumentKitError.self) { try bundle.version(named: "head~1000000000000") }
        #expect(error?.code == .notFound)
        withExtendedLifetime(directory) {}
    }

    @Test func aManifestWithTwoHeadsIsRefused() throws {
        let (directory, corpus) = try Self.corpus()
        Self.malformed(
            { _ = try DocumentBundle(contentsOf: corpus.appendingPathComponent("manifest-duplicate-key.dkproj")) },
            containing: "manifest-duplicate-key.dkproj: manifest.json: not valid JSON: duplicate member name 'head'")
        Self.malformed(
            { _ = try DocumentBundle(contentsOf: corpus.appendingPathComponent("format-version-zero.dkproj")) },
            containing: "manifest.json has format version 0; versions start at 1")
        withExtendedLifetime(directory) {}
    }

    /// An identity object must be exactly its stored bytes; a zstd frame's errors name
    /// its entry; an archive error names the file as the caller named it.
    @Test func objectsThatLieAreLocated() throws {
        let (directory, _) = try Self.corpus()
        let blob = ObjectDigest(hex: "43707e4c5f3a42edd2db4a6a6a517041c67c110598ad55be6e693d8b1fa81efb")!
        for (file, fragment) in [
            ("object-size-lies.dkproj", "object is stored as is, but the manifest gives it 5 bytes and 25 stored"),
            ("zstd-bomb-undeclared.dkproj", "the frame decodes to more than the expected 25 bytes"),
            ("delta-program-bomb.dkproj", "the frame decodes to more than the expected 89 bytes")
        ] {
            let url = URL(fileURLWithPath: "corpus/\(file)", relativeTo: directory.url)
            let bundle = try DocumentBundle(contentsOf: url)
            Self.malformed(
                { _ = try bundle.objectData(blob) },
                containing: "corpus/\(file): entry '\(blob.entryName)': \(fragment)")
        }
        let damaged = URL(fileURLWithPath: "corpus/bad-crc-document.dkproj", relativeTo: directory.url)
        Self.malformed(
            { _ = try DocumentBundle(contentsOf: damaged).headDocumentData() },
            containing: "corpus/bad-crc-document.dkproj: entry 'document.json': the data's CRC-32 is")
    }
}
