import DocumentKit
import Foundation
import Testing

/// `export --format bagit` and `import` of a bag (RFC 8493; FORMAT.md §7, "Exports").
@Suite struct BagItTests {
    /// bagit.py, installed by scripts/setup.sh into .tools/bagit.
    static let bagit = ExternalTool(
        name: "bagit.py", path: Fixtures.repository.appendingPathComponent(".tools/bagit/bin/bagit.py").path)

    static func validate(_ bag: String) throws -> ExternalTool.Result {
        try bagit.run(["--validate", bag])
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aBagOfTheHeadValidatesAndItsBagInfoIsPinned() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("bag")
        let export = try Run.docctl(["export", garden.path, "--format", "bagit", "-o", bag])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.output == "exported version 8 of \(garden.path) to \(bag) (bagit, 2 files, 5.9 KB)\n")
        let validation = try Self.validate(bag)
        #expect(validation.status == 0, "\(validation.standardError)")
        let head = try DocumentBundle(contentsOf: garden).headVersion
        let document = try Run.docctl(["cat", garden.path]).standardOutput
        let png = try Data(contentsOf: Fixtures.repository.appendingPathComponent("SampleDocs/sources/thumbnail.png"))
        #expect(
            try String(contentsOfFile: bag + "/bag-info.txt", encoding: .utf8) == """
                Bag-Software-Agent: DocumentKit \(DocumentKitInfo.version)
                Bagging-Date: 2026-01-01
                DocumentKit-Content-Type: org.documentkit.project
                DocumentKit-Project-Name: Garden
                DocumentKit-Version: 8
                DocumentKit-Version-Id: \(head.id)
                DocumentKit-Version-Author: Sample Author
                DocumentKit-Version-Date: 2026-01-08T00:00:00Z
                DocumentKit-Versions: 1
                Payload-Oxum: \(document.count + png.count).2

                """)
        #expect(
            try String(contentsOfFile: bag + "/bagit.txt", encoding: .utf8)
                == "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")
        #expect(
            try String(contentsOfFile: bag + "/manifest-sha256.txt", encoding: .utf8) == """
                \(ObjectDigest.of(png).hex)  data/blobs/thumbnail.png
                \(ObjectDigest.of(document).hex)  data/document.json

                """)
        let tagManifest = try String(contentsOfFile: bag + "/tagmanifest-sha256.txt", encoding: .utf8)
        #expect(
            tagManifest.split(separator: "\n").map { $0.split(separator: " ").last! } == [
                "bag-info.txt", "bagit.txt", "documentkit/versions.json", "manifest-sha256.txt", "manifest-sha512.txt"
            ])
        let versions =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: bag + "/documentkit/versions.json"))) as? [[String: Any]]
        #expect(
            versions?.count == 1 && versions?[0]["id"] as? String == head.id
                && versions?[0]["path"] as? String == "data")
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aBagOfEveryVersionValidates() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("all")
        let export = try Run.docctl(["export", garden.path, "--format", "bagit", "--all-versions", "-o", bag])
        #expect(export.status == 0, "\(export.standardError)")
        let validation = try Self.validate(bag)
        #expect(validation.status == 0, "\(validation.standardError)")
        let bundle = try DocumentBundle(contentsOf: garden)
        #expect(
            try Fixtures.listing(URL(fileURLWithPath: bag + "/data/versions"))
                == bundle.manifest.versions.map { "\($0.number)-\($0.shortID)" }.sorted())
        let info = try String(contentsOfFile: bag + "/bag-info.txt", encoding: .utf8)
        #expect(
            info.contains("DocumentKit-Versions: 8\n")
                && info.contains("DocumentKit-Version-Id: \(bundle.headVersion.id)\n"))
        // An import restores every version (BagItHistoryTests), the newest its head.
        let back = directory.path("back.dkproj")
        #expect(try Run.docctl(["import", bag, "-o", back]).status == 0)
        #expect(
            try DocumentBundle(contentsOf: URL(fileURLWithPath: back)).manifest.versions == bundle.manifest.versions)
        #expect(try Run.docctl(["cat", back]).output == Run.docctl(["cat", garden.path]).output)
        expectFailure(
            try Run.docctl(["export", garden.path, "--format", "zip", "--all-versions", "-o", directory.path("x.zip")]),
            status: 64, containing: "--all-versions goes with --format bagit")
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aTamperedBagIsRefusedByBagitAndByImport() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("bag")
        #expect(try Run.docctl(["export", garden.path, "--format", "bagit", "-o", bag]).status == 0)
        let blob = URL(fileURLWithPath: bag + "/data/blobs/thumbnail.png")
        var bytes = try Data(contentsOf: blob)
        bytes[100] ^= 0x01
        try bytes.write(to: blob)
        #expect(try Self.validate(bag).status != 0)
        let before = Fixtures.listing(directory.url)
        expectFailure(
            try Run.docctl(["import", bag, "-o", directory.path("t.dkproj")]), status: 65,
            containing: "error: \(bag)/data/blobs/thumbnail.png: does not match manifest-sha256.txt")
        #expect(Fixtures.listing(directory.url) == before, "nothing written")
    }

    @Test func aMissingOrExtraPayloadFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("bag")
        #expect(try Run.docctl(["export", garden.path, "--format", "bagit", "-o", bag]).status == 0)
        try Data("x".utf8).write(to: URL(fileURLWithPath: bag + "/data/blobs/extra.txt"))
        expectFailure(
            try Run.docctl(["import", bag, "-o", directory.path("t.dkproj")]), status: 65,
            containing: "error: \(bag)/data/blobs/extra.txt: is not in manifest-sha256.txt")
        try FileManager.default.removeItem(atPath: bag + "/data/blobs/extra.txt")
        try FileManager.default.removeItem(atPath: bag + "/data/blobs/thumbnail.png")
        expectFailure(
            try Run.docctl(["import", bag, "-o", directory.path("t.dkproj")]), status: 65,
            containing: "error: \(bag)/data/blobs/thumbnail.png: is missing: manifest-sha256.txt lists it")
        #expect(!FileManager.default.fileExists(atPath: directory.path("t.dkproj")))
    }

    @Test func importRoundTripsTheHeadDocumentAndBlobs() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("bag")
        #expect(try Run.docctl(["export", garden.path, "--format", "bagit", "--version", "5", "-o", bag]).status == 0)
        let back = directory.path("back.dkproj")
        let imported = try Run.docctl(["import", bag, "-o", back])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try Run.docctl(["cat", back]).output == Run.docctl(["cat", garden.path, "--version", "5"]).output)
        #expect(
            try Run.docctl(["extract", back, "thumbnail", "-o", "-"]).standardOutput
                == Run.docctl(["extract", garden.path, "thumbnail", "--version", "5", "-o", "-"]).standardOutput)
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aBlobNamedWithAPercentSignAndEmptyGoesUnderItsDigestAndValidates() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("p.dkproj")
        try Run.docctl(["new", bundle, "--name", "P"])
        let file = try Fixtures.write(Data(), to: "100%.png", in: directory.url)
        #expect(try Run.docctl(["attach", bundle, file.path]).status == 0)
        let bag = directory.path("bag")
        #expect(try Run.docctl(["export", bundle, "--format", "bagit", "-o", bag]).status == 0)
        let empty = ObjectDigest.of(Data()).hex
        #expect(Fixtures.listing(URL(fileURLWithPath: bag + "/data/blobs")) == [empty])
        let validation = try Self.validate(bag)
        #expect(validation.status == 0, "\(validation.standardError)")
        // Other exports keep the name: only manifests encode paths.
        #expect(try Run.docctl(["export", bundle, "--format", "dir", "-o", directory.path("dir")]).status == 0)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("dir/blobs")) == ["100%.png"])
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aTamperedBagOfEveryVersionIsRefused() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bag = directory.path("all")
        #expect(try Run.docctl(["export", garden.path, "--format", "bagit", "--all-versions", "-o", bag]).status == 0)
        let bundle = try DocumentBundle(contentsOf: garden)
        let old = "data/versions/2-\(try bundle.manifest.versions[1].shortID)/document.json"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(bag)/\(old)"))
        bytes[0] = UInt8(ascii: " ")
        try bytes.write(to: URL(fileURLWithPath: "\(bag)/\(old)"))
        #expect(try Self.validate(bag).status != 0)
        expectFailure(
            try Run.docctl(["import", bag, "-o", directory.path("t.dkproj")]), status: 65,
            containing: "error: \(bag)/\(old): does not match manifest-sha256.txt")
        #expect(!FileManager.default.fileExists(atPath: directory.path("t.dkproj")))
    }

    @Test(.enabled(if: bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func withHTMLABagHoldsTheAccessCopyItsManifestsListAndImportLeavesOut() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        for (name, extra) in [("bag", [String]()), ("all", ["--all-versions"])] {
            let bag = directory.path(name)
            let export = try Run.docctl(["export", garden.path, "--format", "bagit", "--with-html", "-o", bag] + extra)
            #expect(export.status == 0, "\(export.standardError)")
            let validation = try Self.validate(bag)
            #expect(validation.status == 0, "\(validation.standardError)")
            let manifest = try String(contentsOfFile: bag + "/manifest-sha256.txt", encoding: .utf8)
            let site = SiteLinks.files(in: URL(fileURLWithPath: bag + "/data/access"))
            #expect(
                site.contains("index.html") && site.contains("history.html") && site.contains("blobs/thumbnail.png"))
            for file in site { #expect(manifest.contains("  data/access/\(file)\n"), "\(file)") }
            #expect(try SiteLinks.unresolved(in: URL(fileURLWithPath: bag + "/data/access")) == [])
            #expect(
                try String(contentsOfFile: bag + "/bag-info.txt", encoding: .utf8).contains(
                    "\nDocumentKit-Access-Copy: data/access/index.html\n"))
            #expect(
                SiteLinks.files(in: URL(fileURLWithPath: bag + "/data/access/versions")).contains("1/document.html")
                    == (name == "all"))
            // The access copy is for people: an import takes the document and blobs alone.
            let back = directory.path("\(name).dkproj")
            let imported = try Run.docctl(["import", bag, "-o", back])
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(try Run.docctl(["cat", back]).output == Run.docctl(["cat", garden.path]).output)
            #expect(
                try DocumentBundle(contentsOf: URL(fileURLWithPath: back)).manifest.versions.count
                    == (name == "all" ? 8 : 1))
        }
        // Without --with-html, no access copy.
        let plain = directory.path("plain")
        #expect(try Run.docctl(["export", garden.path, "--format", "bagit", "-o", plain]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: plain + "/data/access"))
        expectFailure(
            try Run.docctl(["export", garden.path, "--format", "zip", "--with-html", "-o", directory.path("x.zip")]),
            status: 64, containing: "--with-html goes with --format bagit")
    }

    @Test func anArchiveRecordsNoAccessCopy() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let root = directory.url.appendingPathComponent("root")
        let archive = try Run.docctl(["archive", garden.path, root.path])
        #expect(archive.status == 0, "\(archive.standardError)")
        let files = SiteLinks.files(in: root)
        #expect(!files.isEmpty)
        #expect(files.filter { $0.hasSuffix(".html") || $0.contains("/access/") }.isEmpty, "\(files)")
    }

    @Test func manifestPathsArePercentEncoded() throws {
        #expect(BagPathCoding.encode("data/a%b\r\nc") == "data/a%25b%0D%0Ac")
        #expect(BagPathCoding.decode("data/a%25b%0D%0Ac") == "data/a%b\r\nc")
        #expect(BagPathCoding.decode("data/%250A") == "data/%0A")
    }

    @Test func exportHelpListsBagitAndHTML() throws {
        let help = try Run.docctl(["export", "--help"], environment: ["COLUMNS": "80"]).output
        #expect(help.contains("--format <format>       zip, tar, tar.gz, tar.zst, dir, json, bagit or html\n"))
        #expect(
            help.contains(
                """
                  --all-versions          Every version: in a bag (--format bagit), or each
                                          version's document in a site (html).
                  --with-html             With --format bagit: add the HTML site, an access
                                          copy, under data/access/.

                """))
    }
}
