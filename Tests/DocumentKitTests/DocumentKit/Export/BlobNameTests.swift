import DocumentKit
import Foundation
import SampleProject
import Testing

/// Blob references record the name they were attached under (FORMAT.md §7).
@Suite struct BlobNameTests {
    @Test func attachRecordsTheFileNameInTheExactReference() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("g.dkproj")
        try Run.docctl(["new", bundle, "--name", "G"])
        let png = try Fixtures.write(Data("not really a png".utf8), to: "photo.png", in: directory.url)
        #expect(try Run.docctl(["attach", bundle, png.path]).status == 0)
        let thumbnail = try Run.docctl(["get", bundle, "thumbnail", "--json"]).output
        let digest = ObjectDigest.of(Data("not really a png".utf8)).hex
        #expect(
            thumbnail == """
                {
                  "$blob" : "\(digest)",
                  "mediaType" : "image/png",
                  "name" : "photo.png",
                  "size" : 16
                }

                """)
    }

    @Test func aReferenceWithoutANameEncodesAsBefore() throws {
        let blob = BlobReference(data: Data("abc".utf8), mediaType: "text/plain")
        #expect(blob.name == nil)
        let text = String(decoding: try CanonicalJSONEncoder().encode(blob, terminated: true), as: UTF8.self)
        #expect(
            text == """
                {
                  "$blob" : "\(ObjectDigest.of(Data("abc".utf8)).hex)",
                  "mediaType" : "text/plain",
                  "size" : 3
                }

                """)
        let named = try BlobReference(data: Data("abc".utf8), mediaType: "text/plain", name: "a.txt")
        #expect(
            String(decoding: try CanonicalJSONEncoder().encode(named), as: UTF8.self).contains(#""name" : "a.txt""#))
    }

    @Test func contentsOfRecordsTheLastPathComponent() throws {
        let directory = try TemporaryDirectory()
        let file = try Fixtures.write(Data("x".utf8), to: "cover.png", in: directory.url)
        #expect(try BlobReference(contentsOf: file, mediaType: "image/png").name == "cover.png")
        #expect(try BlobReference(contentsOf: file, mediaType: "image/png", name: nil).name == nil)
    }

    @Test(arguments: ["../x", "a/b", ".", "..", "", "a\u{1}b", "a\nb", "a\\b", String(repeating: "é", count: 128)])
    func hostileNamesAreRefusedOnWrite(_ name: String) throws {
        #expect(throws: DocumentKitError.self) {
            try BlobReference(data: Data("x".utf8), mediaType: "text/plain", name: name)
        }
        #expect(!BlobReference.isValidName(name))
    }

    @Test func hostileNamesAreIgnoredOnRead() throws {
        let digest = ObjectDigest.of(Data("x".utf8)).hex
        for name in ["../x", "a/b", "a\\u0001b", ".."] {
            let json = #"{"$blob": "\#(digest)", "size": 1, "mediaType": "text/plain", "name": "\#(name)"}"#
            let blob = try JSONDecoder().decode(BlobReference.self, from: Data(json.utf8))
            #expect(blob.name == nil, "\(name)")
        }
        let json = #"{"$blob": "\#(digest)", "size": 1, "mediaType": "text/plain", "name": "ok.txt"}"#
        #expect(try JSONDecoder().decode(BlobReference.self, from: Data(json.utf8)).name == "ok.txt")
    }

    @Test func attachRefusesAFileWhoseNameHasAControlCharacter() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("g.dkproj")
        try Run.docctl(["new", bundle, "--name", "G"])
        let before = try Fixtures.digest(of: URL(fileURLWithPath: bundle))
        let file = try Fixtures.write(Data("x".utf8), to: "a\u{1}b.png", in: directory.url)
        expectFailure(try Run.docctl(["attach", bundle, file.path]), status: 64, containing: "cannot name a blob")
        #expect(try Fixtures.digest(of: URL(fileURLWithPath: bundle)) == before)
    }

    @Test func documentsWithoutNamesReadAsBefore() throws {
        // The sample of schema 1.0.0 was attached by a build that recorded no names.
        let bundle = try DocumentBundle(contentsOf: Fixtures.sampleDoc("legacy-v1.dkproj"))
        let project = try bundle.read(Project.self, version: bundle.headVersion)
        #expect(project.thumbnail != nil)
        #expect(project.thumbnail?.name == nil)
        #expect(try project.thumbnail?.data().count == Int(project.thumbnail!.size))
        let garden = try DocumentBundle(contentsOf: Fixtures.sampleDoc("garden.dkproj"))
        #expect(try garden.read(Project.self, version: garden.headVersion).thumbnail?.name == "thumbnail.png")
    }
}
