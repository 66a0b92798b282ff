import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `LegacyDefaultsImporter` through the library: one version for what is new, none for
/// an import that adds nothing, drafts the project has left alone, new bundles named.
@Suite struct LegacyDefaultsImporterTests {
    private let metadata = SaveMetadata(
        author: "ada", message: "Import drafts", created: Date(timeIntervalSince1970: 1_767_225_600))

    /// A project bundle with one task, saved once.
    private func makeBundle(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        try DocumentController(newDocument: Fixtures.project(taskCount: 1), at: url).save(
            message: "Start", author: "ada", created: metadata.created)
        return url
    }

    @Test(arguments: [LegacyDefaults.Format.xml, .binary, .json])
    func importingTwiceAddsTheDraftsOnce(format: LegacyDefaults.Format) throws {
        let directory = try TemporaryDirectory()
        let bundle = try makeBundle(in: directory)
        let source = try LegacyDefaultsFixtures.write(format, to: "export", in: directory.url)
        let sourceBytes = try Data(contentsOf: source)

        let first = try LegacyDefaultsImporter.importDefaults(
            from: source, into: bundle, type: Project.self, metadata: metadata)
        #expect(first.saved && first.version?.number == 2 && first.previous?.number == 1)
        #expect(first.version?.message == "Import drafts" && first.version?.author == "ada")
        #expect((first.draftsAdded, first.draftsAlreadyPresent, first.blankDraftsSkipped) == (3, 0, 1))
        #expect(first.format == format && !first.newBundle && !first.dryRun)
        #expect(
            first.ignoredKeys == (LegacyDefaultsFixtures.unknownKeys + ["project_name"]).sorted(),
            "an existing project keeps its name")
        let project = try DocumentBundle(contentsOf: bundle).read(Project.self)
        #expect(
            project.drafts
                == LegacyDefaultsFixtures.drafts.map {
                    ProjectDraft(id: $0.id, content: $0.content, createdAt: $0.createdAt!)
                })
        #expect(project.tasks == Fixtures.project(taskCount: 1).tasks && project.name == "Garden")

        let bundleDigest = try Fixtures.digest(of: bundle)
        let second = try LegacyDefaultsImporter.importDefaults(
            from: source, into: bundle, type: Project.self, metadata: metadata)
        #expect(!second.saved && second.version == nil && second.previous == first.version)
        #expect((second.draftsAdded, second.draftsAlreadyPresent, second.blankDraftsSkipped) == (0, 3, 1))
        #expect(try Fixtures.digest(of: bundle) == bundleDigest, "nothing written")
        #expect(try DocumentBundle(contentsOf: bundle).manifest.versions.count == 2)
        #expect(try Data(contentsOf: source) == sourceBytes)
    }

    @Test func draftsTheProjectHasAreLeftAsTheyAreAndDeletedOnesComeBack() throws {
        let directory = try TemporaryDirectory()
        let bundle = try makeBundle(in: directory)
        let source = try LegacyDefaultsFixtures.write(.xml, to: "export.plist", in: directory.url)
        try LegacyDefaultsImporter.importDefaults(from: source, into: bundle, type: Project.self, metadata: metadata)
        let controller = try DocumentController<Project>(contentsOf: bundle)
        controller.document.drafts[0].content = "Hello, world (edited)"
        controller.document.drafts.remove(at: 2)
        try controller.save(message: "Edit drafts", author: "test")

        let again = try LegacyDefaultsImporter.importDefaults(
            from: source, into: bundle, type: Project.self, metadata: metadata)
        #expect(again.saved && again.version?.number == 4)
        #expect((again.draftsAdded, again.draftsAlreadyPresent) == (1, 2))
        let drafts = try DocumentBundle(contentsOf: bundle).read(Project.self).drafts
        #expect(drafts.map(\.content) == ["Hello, world (edited)", "Second post", "Hello, world"])
        #expect(drafts.map(\.id) == LegacyDefaultsFixtures.drafts.map(\.id))
    }

    @Test func draftsWithoutDatesAreCreatedAtTheVersionsTime() throws {
        let directory = try TemporaryDirectory()
        let bundle = try makeBundle(in: directory)
        let source = try Fixtures.write(
            Data(#"{"draft_posts": ["Undated"]}"#.utf8), to: "export.json", in: directory.url)
        let later = SaveMetadata(author: "ada", message: "Import", created: Date(timeIntervalSince1970: 1_767_312_000))
        try LegacyDefaultsImporter.importDefaults(from: source, into: bundle, type: Project.self, metadata: later)
        #expect(try DocumentBundle(contentsOf: bundle).read(Project.self).drafts.map(\.createdAt) == [later.created])
    }

    @Test func nothingToAddSavesNothingEvenOverAnOlderSchema() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Fixtures.copySampleDoc("legacy-v2.dkproj", to: directory)
        let versions = try DocumentBundle(contentsOf: bundle).manifest.versions
        let digest = try Fixtures.digest(of: bundle)
        let empty = try Fixtures.write(
            Data(#"{"draft_posts": [" "], "theme": "dark"}"#.utf8), to: "empty.json", in: directory.url)
        let nothing = try LegacyDefaultsImporter.importDefaults(
            from: empty, into: bundle, type: Project.self, metadata: metadata)
        #expect(!nothing.saved && nothing.previous?.number == versions.count && nothing.previous?.schema == "2.0.0")
        #expect(nothing.blankDraftsSkipped == 1 && nothing.ignoredKeys == ["theme"])
        #expect(try Fixtures.digest(of: bundle) == digest, "not even migrated")

        let source = try LegacyDefaultsFixtures.write(.binary, to: "export.plist", in: directory.url)
        let imported = try LegacyDefaultsImporter.importDefaults(
            from: source, into: bundle, type: Project.self, metadata: metadata)
        #expect(imported.version?.schema == "4.0.0" && imported.version?.number == versions.count + 1)
        let after = try DocumentBundle(contentsOf: bundle)
        #expect(try Array(after.manifest.versions.prefix(versions.count)) == versions, "history untouched")
        #expect(try after.read(Project.self).drafts.count == 3)
    }

    @Test func aDryRunWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let bundle = try makeBundle(in: directory)
        let source = try LegacyDefaultsFixtures.write(.xml, to: "export.plist", in: directory.url)
        let digest = try Fixtures.digest(of: bundle)
        let into = try LegacyDefaultsImporter.importDefaults(
            from: source, into: bundle, type: Project.self, dryRun: true, metadata: metadata)
        #expect(
            into.dryRun && !into.saved && into.version == nil && into.previous?.number == 1 && into.draftsAdded == 3)
        #expect(try Fixtures.digest(of: bundle) == digest)
        let new = directory.url.appendingPathComponent("new.dkproj")
        let creating = try LegacyDefaultsImporter.importDefaults(
            from: source, creating: new, type: Project.self, dryRun: true, metadata: metadata)
        #expect(creating.newBundle && !creating.saved && creating.previous == nil && creating.draftsAdded == 3)
        #expect(!FileManager.default.fileExists(atPath: new.path))
    }

    @Test func aNewProjectIsNamedByTheCallerTheExportOrItsFileName() throws {
        let directory = try TemporaryDirectory()
        let source = try LegacyDefaultsFixtures.write(.binary, to: "export.plist", in: directory.url)
        let blog = directory.url.appendingPathComponent("blog.dkproj")
        let created = try LegacyDefaultsImporter.importDefaults(
            from: source, creating: blog, type: Project.self, metadata: metadata)
        #expect(created.saved && created.newBundle && created.version?.number == 1 && created.previous == nil)
        #expect(created.ignoredKeys == LegacyDefaultsFixtures.unknownKeys, "project_name named it")
        var project = try DocumentBundle(contentsOf: blog).read(Project.self)
        #expect(project.name == "Blog" && project.drafts.map(\.id) == LegacyDefaultsFixtures.drafts.map(\.id))

        let exists = try #require(throws: DocumentKitError.self) {
            try LegacyDefaultsImporter.importDefaults(
                from: source, creating: blog, type: Project.self, metadata: metadata)
        }
        #expect(
            exists.code == .cannotCreateOutput && exists.description == "\(blog.relativePath): already exists"
                && exists.remedy == .replaceOutput)
        let named = try LegacyDefaultsImporter.importDefaults(
            from: source, creating: blog, type: Project.self, name: "Mine", replace: true, metadata: metadata)
        #expect(named.ignoredKeys == (LegacyDefaultsFixtures.unknownKeys + ["project_name"]).sorted())
        project = try DocumentBundle(contentsOf: blog).read(Project.self)
        #expect(project.name == "Mine" && project.drafts.count == 3)

        let unnamed = try Fixtures.write(Data(#"{"draft_posts": ["x"]}"#.utf8), to: "unnamed.json", in: directory.url)
        let notes = directory.url.appendingPathComponent("notes.dkproj")
        try LegacyDefaultsImporter.importDefaults(
            from: unnamed, creating: notes, type: Project.self, metadata: metadata)
        #expect(try DocumentBundle(contentsOf: notes).read(Project.self).name == "notes")
    }

    @Test func aBadExportOrAMissingBundleWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let bundle = try makeBundle(in: directory)
        let digest = try Fixtures.digest(of: bundle)
        let bad = try Fixtures.write(Data(#"{"draft_posts": ["a", 1]}"#.utf8), to: "bad.json", in: directory.url)
        let error = try #require(throws: DocumentKitError.self) {
            try LegacyDefaultsImporter.importDefaults(from: bad, into: bundle, type: Project.self, metadata: metadata)
        }
        #expect(error.code == .malformedInput && error.path == bad.relativePath && error.location == "draft_posts[1]")
        #expect(try Fixtures.digest(of: bundle) == digest)
        #expect(throws: DocumentKitError.self) {
            try LegacyDefaultsImporter.importDefaults(
                from: bad, creating: directory.url.appendingPathComponent("n.dkproj"), type: Project.self,
                metadata: metadata)
        }
        #expect(Fixtures.listing(directory.url) == ["bad.json", "p.dkproj"])

        let source = try LegacyDefaultsFixtures.write(.xml, to: "export.plist", in: directory.url)
        let missing = try #require(throws: DocumentKitError.self) {
            try LegacyDefaultsImporter.importDefaults(
                from: source, into: directory.url.appendingPathComponent("none.dkproj"), type: Project.self,
                metadata: metadata)
        }
        #expect(missing.code == .missingInput && missing.message == "no such bundle" && missing.remedy == .createBundle)
    }
}
