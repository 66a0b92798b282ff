import DocumentKitCLI
import Foundation
import Testing

@testable import DocumentKit

/// Issue 25: `pack`, `prune` and `validate` of a format-3 history read each byte of the
/// bundle once and parse each record once, never listing the history (which decodes every
/// record into a version and every object into a table) or encoding a record again.
/// Counted with docctl's work meter at 2,000 versions, not timed.
@Suite(.serialized) struct HistoryMaintenanceWorkTests {
    @Test func packPruneAndValidateReadTheHistoryOnce() throws {
        let directory = try TemporaryDirectory("history-maintenance-work")
        let url = directory.url.appendingPathComponent("h.dkproj")
        try FormatThreeFixtures.project(at: url, saves: 1_999)
        let size = try Int(
            #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).int64Value)
        let document = try DocumentBundle(contentsOf: url).headDocumentData().count
        let slack = 16_384

        let validate = try WorkScalingTests.meteredRun(["validate", "h.dkproj"], in: directory)
        let pack = try WorkScalingTests.meteredRun(["pack", "h.dkproj", "-o", "packed.dkproj"], in: directory)
        try FileManager.default.copyItem(at: url, to: directory.url.appendingPathComponent("pruned.dkproj"))
        let prune = try WorkScalingTests.meteredRun(["prune", "pruned.dkproj", "--keep", "5"], in: directory)

        // Pack and prune read the head's document twice (its digest checked, then copied) and
        // the segments' object tables before copying the segments. A bundle saved in place
        // used to hide that under the superseded documents it held, until a save wrote its
        // document into an old one's slot.
        for (command, work, again) in [
            ("validate", validate, 0), ("pack", pack, document + slack), ("prune", prune, document + slack)
        ] {
            #expect(
                work["read-bytes", default: .max] <= size + again + slack,
                "\(command) read \(work["read-bytes"] ?? 0) bytes of a bundle of \(size)")
        }
        for (command, work) in [("pack", pack), ("prune", prune)] {
            // The records are copied as they are (each parsed once, to be identified); only
            // the small manifest is encoded.
            #expect(
                work["encoded-bytes", default: .max] <= slack, "\(command) encoded \(work["encoded-bytes"] ?? 0) bytes")
            #expect(
                work["stored-bytes", default: .max] <= size + slack,
                "\(command) wrote \(work["stored-bytes"] ?? 0) bytes")
            // Every record's text is parsed once in each: what validate parses, but for the
            // head's document, which validate also parses and decodes.
            #expect(
                work["json-bytes", default: .max] <= validate["json-bytes", default: 0] + slack,
                "\(command) parsed \(work["json-bytes"] ?? 0) bytes of JSON; validate, \(validate["json-bytes"] ?? 0)")
        }
        // Each record once (about 400 bytes a version), and the head's document a few times.
        #expect(
            validate["json-bytes", default: .max] <= pack["json-bytes", default: 0] + 4 * document + slack,
            "validate parsed \(validate["json-bytes"] ?? 0) bytes of JSON; pack, \(pack["json-bytes"] ?? 0)")
        #expect(pack["json-bytes", default: 0] > 2_000 * 200, "the meter sees each record parsed")
    }

    /// `validate --deep` decodes each version's document once, from its delta base held in
    /// memory, and compares it with its parent's as the walk hands them over: it hashes
    /// about one document a version, where rebuilding each document and its parent's from
    /// their chains hashed several.
    @Test func deepValidationDecodesEachDocumentOnce() throws {
        let directory = try TemporaryDirectory("history-deep-work")
        var hashedPerVersion: [Int: Double] = [:]
        for versions in [20, 400] {
            let url = directory.url.appendingPathComponent("h\(versions).dkproj")
            try FormatThreeFixtures.project(at: url, saves: versions - 1)
            let document = try DocumentBundle(contentsOf: url).headDocumentData().count
            let work = try WorkScalingTests.meteredRun(["validate", "--deep", "h\(versions).dkproj"], in: directory)
            let hashed = work["hashed-bytes", default: .max]
            hashedPerVersion[versions] = Double(hashed) / Double(versions * document)
            // Each document once (the head's a few times), and the trees: about 1.2 documents a
            // version; rebuilding documents from their chains hashed 2.2.
            #expect(
                Double(hashed) <= 1.5 * Double(versions * document),
                "hashed \(hashed) bytes for \(versions) versions of \(document) bytes")
        }
        let short = try #require(hashedPerVersion[20])
        let long = try #require(hashedPerVersion[400])
        #expect(long <= short * 1.25, "hashed \(long) documents a version at 400 versions, \(short) at 20")
    }
}
