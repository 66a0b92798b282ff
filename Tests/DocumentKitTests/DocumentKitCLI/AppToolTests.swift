import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// An app ships its own command-line tool with docctl's commands over its own document
/// type (Sources/notectl: a `Note` and one call to `DocumentTool.run`), and docctl, which
/// does not know that type, still reads, validates and edits its bundles, as schema-less
/// JSON checked by the format's rules alone.
@Suite struct AppToolTests {
    /// A note bundle made by notectl: created, given a text, a picture attached.
    private func noteBundle(in directory: TemporaryDirectory) throws {
        try Fixtures.png.write(to: directory.url.appendingPathComponent("p.png"))
        for arguments in [
            ["new", "n.note", "--name", "Groceries"], ["set", "n.note", "text", "milk, eggs"],
            ["attach", "n.note", "p.png"]
        ] {
            let result = try Run.notectl(arguments, in: directory.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
    }

    @Test func theAppsToolCreatesAndEditsItsOwnTypeWithItsRules() throws {
        let directory = try TemporaryDirectory()
        try noteBundle(in: directory)
        let digest = ObjectDigest.of(Fixtures.png).hex
        #expect(
            try Run.notectl(["cat", "n.note"], in: directory.url).output == """
                {
                  "name" : "Groceries",
                  "picture" : {
                    "$blob" : "\(digest)",
                    "mediaType" : "image/png",
                    "name" : "p.png",
                    "size" : \(Fixtures.png.count)
                  },
                  "text" : "milk, eggs"
                }

                """)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("n.note"))
        #expect(try bundle.manifest.contentType == "com.example.note")
        #expect(bundle.mimeType == "application/vnd.example.note+zip")
        #expect(bundle.headVersion.schema == "1.0.0")
        // The type's own rule, and its schema: a field the type does not have is not kept
        // (its synthesized `Codable` drops it; `Project` decodes strictly and refuses it),
        // and the tool says that nothing changed.
        expectFailure(
            try Run.notectl(["set", "n.note", "name", " "], in: directory.url), status: 65,
            containing: "n.note: name: must not be empty")
        #expect(
            try Run.notectl(["set", "n.note", "colour", "red"], in: directory.url).output.hasPrefix(
                "no change: n.note stays at version 3 ("))
        #expect(
            try Run.notectl(["validate", "--deep", "n.note"], in: directory.url).output
                == "n.note: ok (3 versions, \(bundle.manifest.objects.count) objects, every digest checked)\n")
        // The tool is named as the app named it, in its help and its errors.
        let help = try Run.notectl(["--help"], in: directory.url).output
        #expect(help.contains("USAGE: notectl <subcommand>"), "\(help)")
        #expect(help.contains("`notectl --version` prints the version."), "\(help)")
        expectFailure(
            try Run.notectl(["frobnicate"], in: directory.url), status: 64, containing: "(see 'notectl --help')")
    }

    /// The library's errors name no option; each tool adds the hint in its own words.
    @Test func theAppsToolGivesHintsInItsOwnWords() throws {
        let directory = try TemporaryDirectory()
        try noteBundle(in: directory)
        let copy = directory.url.appendingPathComponent("b.note")
        try FileManager.default.copyItem(at: directory.url.appendingPathComponent("n.note"), to: copy)
        // A picture big enough to be stored alone, damaged in the copy pulled from.
        var generator = SeededRandom(seed: 0xD0C5)
        let picture = Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try picture.write(to: directory.url.appendingPathComponent("big.png"))
        #expect(try Run.notectl(["attach", "b.note", "big.png"], in: directory.url).status == 0)
        let entry = try #require(
            try DocumentBundle(contentsOf: copy).zip.entry(named: ObjectDigest.of(picture).entryName))
        let handle = try FileHandle(forUpdating: copy)
        try handle.seek(toOffset: entry.dataOffset + entry.size / 2)
        let byte = try #require(try handle.read(upToCount: 1))
        try handle.seek(toOffset: entry.dataOffset + entry.size / 2)
        try handle.write(contentsOf: Data([byte[0] ^ 0xFF]))
        try handle.close()

        for tool in ["notectl", "docctl"] {
            let refused =
                tool == "notectl"
                ? try Run.notectl(["pull", "n.note", "b.note"], in: directory.url)
                : try Run.docctl(["pull", "n.note", "b.note"], in: directory.url)
            expectFailure(
                refused, status: 65,
                containing: "; nothing was pulled ('\(tool) validate --deep' lists every problem)\n")
        }
        let error = DocumentKitError(
            .malformedInput, "cannot be pulled from: damaged; nothing was pulled", path: "b.note",
            remedy: .validateFully)
        #expect(error.description == "b.note: cannot be pulled from: damaged; nothing was pulled")
        #expect(
            error.described(byTool: "notectl")
                == """
                b.note: cannot be pulled from: damaged; nothing was pulled ('notectl validate --deep' lists every \
                problem)
                """
        )
        #expect(
            DocumentKitError.outputExists("x.note").described(byTool: "notectl")
                == "x.note: already exists (use --force to replace it)")
    }

    @Test func docctlReadsAnyBundleAndEditsAnUnknownTypeAsJSONUnderTheFormatsRules() throws {
        let directory = try TemporaryDirectory()
        try noteBundle(in: directory)
        let before = try Data(contentsOf: directory.url.appendingPathComponent("n.note"))
        #expect(
            try Run.docctl(["cat", "n.note"], in: directory.url).output
                == Run.notectl(["cat", "n.note"], in: directory.url).output)
        #expect(try Run.docctl(["get", "n.note", "text"], in: directory.url).output == "milk, eggs\n")
        #expect(try Run.docctl(["log", "n.note", "-n", "1"], in: directory.url).status == 0)
        let validation = try Run.docctl(["validate", "--deep", "n.note"], in: directory.url)
        #expect(validation.status == 0)
        #expect(
            validation.output.contains(
                "warning document.unknown-type: this build does not know the content type com.example.note"))

        // The format's rules hold: the document stays an object, its blobs exist. A refused
        // edit leaves the bundle byte for byte as it was.
        expectFailure(
            try Run.docctl(["set", "n.note", "", "[1]"], in: directory.url), status: 65,
            containing: "n.note: a document must be a JSON object, found […] (an array)")
        let missing = String(repeating: "a", count: 64)
        expectFailure(
            try Run.docctl(["set", "n.note", "extra", #"{"$blob": "\#(missing)"}"#], in: directory.url), status: 65,
            containing: "n.note: extra: refers to blob aaaaaaaaaaaa, which is not in the bundle")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("n.note")) == before)

        // The note's own rules are the app's: docctl does not know them.
        let edit = try Run.docctl(["set", "n.note", "name", "Shopping"], in: directory.url)
        #expect(edit.status == 0, "\(edit.standardError)")
        let picture = try Run.docctl(["get", "n.note", "picture"], in: directory.url).output
        let removal = try Run.docctl(["unset", "n.note", "picture"], in: directory.url)
        #expect(removal.status == 0, "\(removal.standardError)")
        // A blob only an older version holds may be referred to again: the version holds it again.
        let restored = try Run.docctl(["set", "n.note", "picture", picture], in: directory.url)
        #expect(restored.status == 0, "\(restored.standardError)")
        #expect(try Run.docctl(["validate", "--deep", "n.note"], in: directory.url).status == 0)
        #expect(try Run.docctl(["unset", "n.note", "picture"], in: directory.url).status == 0)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("n.note"))
        #expect(try bundle.manifest.contentType == "com.example.note")
        #expect(bundle.mimeType == "application/vnd.example.note+zip")
        #expect(bundle.headVersion.schema == "1.0.0")
        #expect(
            try bundle.tree(of: bundle.headVersion)[VersionLayout.blobsFolder] == nil,
            "the blob no version refers to left the head's tree")
        #expect(try Run.notectl(["get", "n.note", "name"], in: directory.url).output == "Shopping\n")
        // `edit` too, with the user's editor.
        let editor = directory.url.appendingPathComponent("editor.sh").path
        try "#!/bin/sh\nsed -i 's/Shopping/Market/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let edited = try Run.docctl(
            ["edit", "n.note", "name"], in: directory.url, environment: ["EDITOR": editor, "VISUAL": editor])
        #expect(edited.status == 0, "\(edited.standardError)")
        #expect(try Run.notectl(["get", "n.note", "name"], in: directory.url).output == "Market\n")
        // A migration needs the type's schemas: refused, naming the type.
        expectFailure(
            try Run.docctl(["migrate", "n.note"], in: directory.url), status: 65,
            containing: "error: n.note: holds com.example.note, a document type this build cannot edit")
        #expect(try Run.notectl(["validate", "--deep", "n.note"], in: directory.url).status == 0)
    }
}
