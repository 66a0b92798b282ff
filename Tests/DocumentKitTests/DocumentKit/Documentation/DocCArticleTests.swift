import DocumentKit
import Foundation
import Testing

/// The DocC articles' code is correct for the current API: every Swift block of an article
/// is in DocCExamples.swift, line for line, where it compiles, and these tests run it and
/// check what the articles say it does.
@Suite struct DocCArticleTests {
    static let catalog = Fixtures.repository.appendingPathComponent("Sources/DocumentKit/DocumentKit.docc")
    static let examples = Fixtures.repository.appendingPathComponent(
        "Tests/DocumentKitTests/DocumentKit/Documentation/DocCExamples.swift")

    /// The lines of `text` that say something: trimmed, without blank lines, and without
    /// `import` lines (an article shows them; a test file has them once, at its top).
    static func codeLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// The ```swift blocks of an article.
    static func swiftBlocks(_ article: String) -> [String] {
        article.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
    }

    @Test func everySwiftBlockOfTheArticlesIsCompiledHere() throws {
        let examples = Self.codeLines(try String(contentsOf: Self.examples, encoding: .utf8))
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter {
            $0.hasSuffix(".md")
        }.sorted()
        #expect(articles.count >= 7)
        var blocks = 0
        for article in articles {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent(article), encoding: .utf8)
            for block in Self.swiftBlocks(text) {
                blocks += 1
                let lines = Self.codeLines(block)
                let found = examples.indices.contains { start in
                    start + lines.count <= examples.count && Array(examples[start..<start + lines.count]) == lines
                }
                #expect(
                    found, "\(article): a Swift block is not in DocCExamples.swift as written: \(lines.first ?? "")")
            }
        }
        #expect(blocks >= 20)
    }

    @Test func gettingStartedRunsAsWritten() async throws {
        let directory = try TemporaryDirectory()
        let photoURL = try Fixtures.write(Fixtures.png, to: "pancakes.jpg", in: directory.url)

        try GettingStartedV1.landingPage(url: directory.url.appendingPathComponent("first.recipe"))
        let saved = try GettingStartedV1.saveAndRead(folder: directory.url, photoURL: photoURL)
        #expect(saved.log == ["1 Ada: First draft", "2 Ada: Ingredients"])
        #expect(saved.first.ingredients.isEmpty && saved.photo == Fixtures.png)
        #expect(saved.first.photo?.name == "pancakes.jpg")

        // Change the type: the head (schema 1.0.0) is migrated in memory, saved as 2.0.0.
        let merged = try GettingStartedV2.migrateAndMerge(url: saved.url, folder: directory.url)
        #expect(merged.outcome.kind == .merged && merged.outcome.conflicts.isEmpty)
        #expect(merged.opened.document.title == "Fluffy pancakes")
        #expect(merged.opened.document.ingredients == ["flour", "milk", "eggs", "sugar"])
        #expect(merged.opened.document.servings == 4)
        let bundle = try DocumentBundle(contentsOf: saved.url)
        #expect(try bundle.manifest.versions.map(\.schema) == ["1.0.0", "1.0.0", "2.0.0", "2.0.0", "2.0.0", "2.0.0"])
        #expect(bundle.headVersion.parents.count == 2)

        // BundlesAndVersions.md, on the same bundle.
        let read = try GettingStartedV2.read(url: saved.url)
        #expect(read.head == bundle.headVersion && read.previous.id == bundle.headVersion.parents[0])
        #expect(read.old.title == "Fluffy pancakes" && !read.old.ingredients.contains("sugar"))
        #expect(try GettingStartedV2.Recipe.decode(read.json, schema: read.previous.schema).title == "Fluffy pancakes")
        let shared = try await GettingStartedV2.actor(url: saved.url)
        #expect(await shared.document.ingredients.last == "butter")
        let checked = try GettingStartedV2.check(url: saved.url)
        #expect(checked.report.valid, "\(checked.report.findings)")
        #expect(checked.trimmed.dryRun && checked.trimmed.removedVersions.isEmpty)

        // SchemasAndMigrations.md: a third schema, and the migration saved alone.
        let migrated = try GettingStartedV3.migrate(url: saved.url)
        #expect(migrated.plan.stages.map(\.id) == ["v3-tags"] && !migrated.plan.saved)
        #expect(migrated.report.saved && migrated.report.from == "2.0.0" && migrated.report.to == "3.0.0")
        #expect(try GettingStartedV3.Recipe.migration(from: "1.0.0").stages.map(\.id) == ["v2-servings", "v3-tags"])
        let current = try DocumentController<GettingStartedV3.Recipe>(contentsOf: saved.url)
        #expect(current.document.servings == 4 && current.document.tags == nil)
        #expect(try GettingStartedV3.Recipe.schemaMigrator() != nil)
    }

    @Test func blobsRunAsWritten() throws {
        let directory = try TemporaryDirectory()
        let photoURL = try Fixtures.write(Fixtures.png, to: "pancakes.jpg", in: directory.url)
        let result = try GettingStartedV1.blobs(folder: directory.url, photoURL: photoURL)
        #expect(result.bytes == Fixtures.png && result.count == Fixtures.png.count)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("exported.jpg")) == Fixtures.png)
        #expect(result.card.name == nil && result.card.size == 11)
        #expect(result.bar.phases.contains(.writing))
    }

    @Test func transactionsRunAsWritten() throws {
        typealias Board = Transactions.Board
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("garden.board")
        let controller = DocumentController(newDocument: Board(name: "Garden"), at: url)
        try controller.save(message: "Start", author: "Ada")

        let steps = try Transactions.run(controller: controller)
        // The card named its column; the transaction made the column list it.
        #expect(steps.planned.columns.first?.cards == steps.planned.cards.map(\.id))
        // Deleting the column deleted its card (cascade).
        #expect(steps.cleared.columns.isEmpty && steps.cleared.cards.isEmpty)
        #expect(
            steps.shown.map(\.description) == ["cards[0].title: must not be empty", "cards[1].title: must not be empty"]
        )
        #expect(controller.document.cards.isEmpty, "the refused write left the document as it was")
        #expect(
            steps.merge.conflicts.isEmpty && steps.merge.merged?.cards.map(\.title) == ["Buy seeds", "Dig the beds"])
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.count == 3)

        // KeyValueStorageGuide.md: the bundle's state.
        let card = Transactions.Card(title: "Water the beds")
        #expect(try KeyValueStorageGuide.state(controller: controller, card: card, url: url) == card.id)
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.count == 3, "state saves no version")
    }

    @Test func keyValueStorageRunsAsWritten() throws {
        let directory = try TemporaryDirectory()
        let result = try KeyValueStorageGuide.preferences(
            preferencesURL: directory.url.appendingPathComponent("preferences.json"))
        #expect(result.units == "imperial")
        #expect(try result.preferences.recentRecipes.get() == ["pancakes.recipe"])
        #expect(try InMemoryStorage().units.get() == "metric")
        let wrong = InMemoryStorage(values: ["units": .integer(42)])
        let error = #expect(throws: DocumentKitError.self) { try wrong.units.get() }
        #expect(
            error?.code == .malformedInput
                && error?.description.contains("key 'units': expected a string, found 42 (a number)") == true,
            "\(String(describing: error))")
    }
}
