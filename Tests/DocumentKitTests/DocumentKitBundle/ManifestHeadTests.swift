import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// `BundleManifest.headRecords`, the quick look of `cat` and `get`: it finds the head's
/// records in any layout a valid manifest may have, gives exactly what decoding the whole
/// manifest gives, and gives up (so that the whole manifest is decoded) on anything else.
@Suite struct ManifestHeadTests {
    /// A bundle of four versions whose messages hold every character that could mislead a
    /// scan of JSON text: quotes, backslashes, brackets, braces, commas, colons.
    static func bundle(in directory: TemporaryDirectory) throws -> (DocumentBundle, Data) {
        let url = directory.url.appendingPathComponent("p.dkproj")
        // Format 2, whose manifest lists the records the scan looks through.
        let metadata = { (message: String) in SaveMetadata.formatTwo(message: message) }
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: JSONValue.parse(Data(#"{"name": "P"}"#.utf8)),
            metadata: metadata(#"{"head": "0000", "versions": [}"#))
        _ = try BundleEdits.set(
            .string(#"Q "}]\"#), at: JSONPath(parsing: "name"), in: url,
            metadata: metadata(#"a \"quoted\" ] }, {"id": "x"} \\"#))
        try Data("hello, blob\n".utf8).write(to: directory.url.appendingPathComponent("b.png"))
        _ = try BundleEdits.attach(
            directory.url.appendingPathComponent("b.png"), at: nil, in: url, metadata: metadata("id: \"tree\""))
        _ = try BundleEdits.set(
            .string("[[[{{{"), at: JSONPath(parsing: "summary"), in: url, metadata: metadata("last"))
        return (try DocumentBundle(contentsOf: url), try BundleFile(url: url, limits: .default).manifestData)
    }

    static func expectHead(in text: Data, of bundle: DocumentBundle, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let found = try #require(
            try BundleManifest.headRecords(in: text, limits: .default), sourceLocation: sourceLocation)
        #expect(found.version == bundle.headVersion, sourceLocation: sourceLocation)
        #expect(try found.tree == bundle.manifest.objects[bundle.headVersion.tree], sourceLocation: sourceLocation)
        #expect(try found.contentType == bundle.manifest.contentType, sourceLocation: sourceLocation)
    }

    @Test func findsTheHeadInEveryLayoutOfAValidManifest() throws {
        let directory = try TemporaryDirectory()
        let (bundle, written) = try Self.bundle(in: directory)
        #expect(try bundle.manifest.versions.count == 4)
        try Self.expectHead(in: written, of: bundle)
        // Compact, and as Python writes it (other spacing, other key order, escaped text).
        let object = try JSONSerialization.jsonObject(with: written)
        try Self.expectHead(in: try JSONSerialization.data(withJSONObject: object), of: bundle)
        try Self.expectHead(
            in: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), of: bundle)
        let python = try ExternalTool.python3.run(
            [
                "-c",
                "import json, sys; m = json.load(sys.stdin); m = {k: m[k] for k in reversed(list(m))}; "
                    + "print(json.dumps(m, indent='\\t', ensure_ascii=True))"
            ], input: written)
        try Self.expectHead(in: python.standardOutput, of: bundle)
    }

    /// Each of these is refused or read otherwise by decoding the whole manifest: the
    /// quick look leaves them to it.
    @Test func leavesEverythingElseToTheWholeManifest() throws {
        let directory = try TemporaryDirectory()
        let (bundle, written) = try Self.bundle(in: directory)
        let text = String(decoding: written, as: UTF8.self)
        let head = try bundle.manifest.head
        let cases = [
            "the head twice": text.replacingOccurrences(of: #""head" : "#, with: #""head" : "\#(head)", "head" : "#),
            "an escaped name": text.replacingOccurrences(of: #""head" : "#, with: #""he\u0061d" : "#),
            "an escaped id": text.replacingOccurrences(
                of: #""id" : "\#(head)""#, with: #""id" : "\u0030\#(head.dropFirst())""#),
            "a head that is no version": text.replacingOccurrences(
                of: #""head" : "\#(head)""#, with: #""head" : "\#(String(repeating: "0", count: 64))""#),
            "no objects": text.replacingOccurrences(of: #""objects" : "#, with: #""objets" : "#),
            "a head record of the wrong shape": text.replacingOccurrences(
                of: #""tree" : "\#(bundle.headVersion.tree.hex)""#, with: #""tree" : 7"#),
            "text after the object": text + "{}",
            "a byte order mark": "\u{FEFF}" + text,
            "cut short": String(text.prefix(text.count / 2)),
            "an array": "[" + text + "]"
        ]
        for (what, variant) in cases {
            #expect(variant != text, "\(what)")
            #expect(try BundleManifest.headRecords(in: Data(variant.utf8), limits: .default) == nil, "\(what)")
        }
        for cut in stride(from: 0, to: written.count, by: 97) {
            #expect(try BundleManifest.headRecords(in: written.prefix(cut), limits: .default) == nil, "cut at \(cut)")
        }
    }

    @Test func refusesANewerFormatAsTheWholeManifestWould() throws {
        let directory = try TemporaryDirectory()
        let (_, written) = try Self.bundle(in: directory)
        let newer = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: #""formatVersion" : 2"#, with: #""formatVersion" : 4"#)
        let error = #expect(throws: DocumentKitError.self) {
            try BundleManifest.headRecords(in: Data(newer.utf8), limits: .default)
        }
        #expect(error?.code == .unsupportedFormat)
        // Format 3 is read through its history, never by this scan.
        let three = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: #""formatVersion" : 2"#, with: #""formatVersion" : 3"#)
        #expect(try BundleManifest.headRecords(in: Data(three.utf8), limits: .default) == nil)
    }
}
