// swift-format-ignore-file
// Not formatted: the articles' Swift blocks are checked against this file as written.
import DocumentKit
import Foundation

// The code of the DocC articles (Sources/DocumentKit/DocumentKit.docc), as written:
// DocCArticleTests checks that every Swift block of an article is here, line for line,
// and runs it. An article shows a type as it is at that point of its story, so each
// stage of a type lives in a namespace of its own (GettingStartedV1, V2, V3).

/// Recipe before it had a migration plan: GettingStarted.md, Blobs.md, DocumentKit.md.
enum GettingStartedV1 {
    struct Recipe: CodableDocument {
        static let contentType = ContentType(identifier: "com.example.recipe", filenameExtensions: ["recipe"],
                                             mimeType: "application/vnd.example.recipe+zip", conformsTo: [.documentBundle])
        var title: String
        var ingredients: [String] = []
        var photo: BlobReference?

        func ruleViolations() -> [RuleViolation] {
            [RuleViolation.blank(title, at: "title")].compactMap { $0 }
        }
    }

    /// DocumentKit.md.
    static func landingPage(url: URL) throws {
        let controller = DocumentController(newDocument: Recipe(title: "Pancakes"), at: url)
        try controller.save(message: "First draft", author: "Ada")
    }

    /// GettingStarted.md: "Save versions" and "Read the history".
    static func saveAndRead(folder: URL, photoURL: URL) throws -> (url: URL, log: [String], first: Recipe, photo: Data?) {
        let url = folder.appendingPathComponent("pancakes.recipe")
        var recipe = Recipe(title: "Pancakes")
        recipe.photo = try BlobReference(contentsOf: photoURL, mediaType: "image/jpeg")
        let controller = DocumentController(newDocument: recipe, at: url)
        try controller.save(message: "First draft", author: "Ada")

        controller.document.ingredients = ["flour", "milk", "eggs"]
        try controller.save(message: "Ingredients", author: "Ada")

        let bundle = try DocumentBundle(contentsOf: url)
        let log = try bundle.manifest.versions.map { "\($0.number) \($0.author): \($0.message)" }
        let first = try bundle.read(Recipe.self, version: bundle.version(named: "1"))
        let photo = try first.photo?.data()
        return (url, log, first, photo)
    }

    /// Blobs.md: making, reading and saving blobs, with progress.
    static func blobs(folder: URL, photoURL: URL) throws -> (card: BlobReference, bytes: Data?, count: Int, bar: ProgressBar) {
        let exportURL = folder.appendingPathComponent("exported.jpg")
        var recipe = Recipe(title: "Pancakes")
        recipe.photo = try BlobReference(contentsOf: photoURL, mediaType: "image/jpeg")
        let card = BlobReference(data: Data("Serve warm.".utf8), mediaType: "text/plain")

        let bytes = try recipe.photo?.data()
        var count = 0
        try recipe.photo?.stream { block in count += block.count }
        try recipe.photo?.write(to: exportURL)

        let controller = DocumentController(newDocument: recipe, at: folder.appendingPathComponent("photo.recipe"))
        let bar = ProgressBar()
        _ = try WorkProgress.reporting(to: { bar.show($0.phase, $0.fractionCompleted) }) {
            try controller.save(message: "New photo", author: "Ada")
        }
        return (card, bytes, count, bar)
    }
}

/// The app's progress bar of Blobs.md: it records what it is shown.
final class ProgressBar: Sendable {
    private let shown = Protected<[(WorkProgress.Phase, Double?)]>([])

    func show(_ phase: WorkProgress.Phase, _ fraction: Double?) {
        shown.mutate { $0.append((phase, fraction)) }
    }

    var phases: [WorkProgress.Phase] { shown.value.map(\.0) }
}

/// Recipe with its second schema: GettingStarted.md, "Change the type" and "Merge two copies".
enum GettingStartedV2 {
    enum RecipeSchemaV1: VersionedSchema {
        static let versionIdentifier = SchemaVersion(1, 0, 0)
        struct Recipe: Codable {
            var title: String
            var ingredients: [String]
            var photo: BlobReference?
        }
        typealias Model = Recipe
    }

    enum RecipeSchemaV2: VersionedSchema {
        static let versionIdentifier = SchemaVersion(2, 0, 0)
        typealias Model = Recipe
    }

    enum RecipeMigrationPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [RecipeSchemaV1.self, RecipeSchemaV2.self] }
        static var stages: [MigrationStage] {
            [.custom(id: "v2-servings", fromVersion: RecipeSchemaV1.self, toVersion: RecipeSchemaV2.self,
                     migrate: { old in Recipe(title: old.title, ingredients: old.ingredients, servings: 2, photo: old.photo) })]
        }
    }

    struct Recipe: CodableDocument {
        static let contentType = ContentType(identifier: "com.example.recipe", filenameExtensions: ["recipe"],
                                             mimeType: "application/vnd.example.recipe+zip", conformsTo: [.documentBundle])
        static var migrationPlan: (any SchemaMigrationPlan.Type)? { RecipeMigrationPlan.self }
        var title: String
        var ingredients: [String] = []
        var servings: Int
        var photo: BlobReference?

        func ruleViolations() -> [RuleViolation] {
            [RuleViolation.blank(title, at: "title")].compactMap { $0 }
        }
    }

    /// Opens the bundle GettingStartedV1 saved, migrates and saves it, then merges a copy.
    static func migrateAndMerge(url: URL, folder: URL) throws -> (opened: DocumentController<Recipe>, outcome: BundlePuller.Outcome) {
        let opened = try DocumentController<Recipe>(contentsOf: url)
        opened.document.servings = 4
        try opened.save(message: "Serves four", author: "Ada")

        let copyURL = folder.appendingPathComponent("pancakes-copy.recipe")
        try FileManager.default.copyItem(at: url, to: copyURL)
        let copy = try DocumentController<Recipe>(contentsOf: copyURL)
        copy.document.ingredients.append("sugar")
        try copy.save(message: "Sweeter", author: "Grace")

        opened.document.title = "Fluffy pancakes"
        try opened.save(message: "Rename", author: "Ada")
        let outcome = try opened.pull(from: copyURL, author: "Ada")
        return (opened, outcome)
    }

    /// BundlesAndVersions.md: reading versions.
    static func read(url: URL) throws -> (head: BundleVersion, previous: BundleVersion, old: Recipe, json: Data) {
        let bundle = try DocumentBundle(contentsOf: url)
        let head = bundle.headVersion
        let previous = try bundle.version(named: "head~1")
        let old = try bundle.read(Recipe.self, version: previous)
        let json = try bundle.documentData(of: previous)
        return (head, previous, old, json)
    }

    /// BundlesAndVersions.md: the actor.
    static func actor(url: URL) async throws -> DocumentActor<Recipe> {
        let shared = try await DocumentActor<Recipe>(contentsOf: url)
        try await shared.write(message: "More butter", author: "Ada") { $0.ingredients.append("butter") }
        return shared
    }

    /// BundlesAndVersions.md: checking and trimming (the synchronous calls; an `async`
    /// caller gets their `async` forms).
    static func check(url: URL) throws -> (report: ValidationReport, trimmed: BundlePruner.Report) {
        let report = try BundleValidator.validate(url, deep: true)
        let trimmed = try BundlePruner.prune(url, keep: 10, dryRun: true)
        return (report, trimmed)
    }
}

/// Recipe with its third schema: SchemasAndMigrations.md.
enum GettingStartedV3 {
    enum RecipeSchemaV1: VersionedSchema {
        static let versionIdentifier = SchemaVersion(1, 0, 0)
        struct Recipe: Codable {
            var title: String
            var ingredients: [String]
            var photo: BlobReference?
        }
        typealias Model = Recipe
    }

    enum RecipeSchemaV2: VersionedSchema {
        static let versionIdentifier = SchemaVersion(2, 0, 0)
        struct Recipe: Codable {
            var title: String
            var ingredients: [String]
            var servings: Int
            var photo: BlobReference?
        }
        typealias Model = Recipe
    }

    enum RecipeSchemaV3: VersionedSchema {
        static let versionIdentifier = SchemaVersion(3, 0, 0)
        typealias Model = Recipe
    }

    enum RecipeMigrationPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [RecipeSchemaV1.self, RecipeSchemaV2.self, RecipeSchemaV3.self] }
        static var stages: [MigrationStage] {
            [
                .custom(id: "v2-servings", fromVersion: RecipeSchemaV1.self, toVersion: RecipeSchemaV2.self,
                        migrate: { old in RecipeSchemaV2.Recipe(title: old.title, ingredients: old.ingredients, servings: 2, photo: old.photo) }),
                .lightweight(id: "v3-tags", fromVersion: RecipeSchemaV2.self, toVersion: RecipeSchemaV3.self),
            ]
        }
    }

    /// The current type: 2.0.0's fields and optional tags.
    struct Recipe: CodableDocument {
        static let contentType = ContentType(identifier: "com.example.recipe", filenameExtensions: ["recipe"],
                                             mimeType: "application/vnd.example.recipe+zip", conformsTo: [.documentBundle])
        static var migrationPlan: (any SchemaMigrationPlan.Type)? { RecipeMigrationPlan.self }
        var title: String
        var ingredients: [String] = []
        var servings: Int
        var tags: [String]?
        var photo: BlobReference?
    }

    /// Migrates the bundle at `url` (whose head has schema 2.0.0) explicitly.
    static func migrate(url: URL) throws -> (plan: BundleMigrator.Report, report: BundleMigrator.Report) {
        var configuration = DocumentKitConfiguration()
        configuration.documentTypes = [Recipe.self]
        let (plan, report) = try configuration.apply {
            (try BundleMigrator.migrate(url, dryRun: true, author: "Ada"), try BundleMigrator.migrate(url, author: "Ada"))
        }
        return (plan, report)
    }
}

/// The board of TransactionsAndRelationships.md.
enum Transactions {
    struct Board: CodableDocument {
        static let contentType = ContentType(identifier: "com.example.board", filenameExtensions: ["board"],
                                             mimeType: "application/vnd.example.board+zip", conformsTo: [.documentBundle])
        var name: String
        var columns: [Column] = []
        var cards: [Card] = []

        static var recordCollections: [RecordCollection<Board>] {
            [RecordCollection("columns", \.columns, recordName: "column"), RecordCollection("cards", \.cards, recordName: "card")]
        }

        static var relationships: [DocumentRelationship<Board>] {
            [DocumentRelationship("column.cards", from: \.columns, named: "columns", via: \.cards, named: "cards",
                                  to: \.cards, named: "cards", inverse: \.column, named: "column",
                                  deleteRule: .cascade, inverseDeleteRule: .nullify)]
        }
    }

    struct Column: DocumentRecord {
        var id = UUID()
        var name: String
        var cards: [UUID] = []
    }

    struct Card: DocumentRecord {
        var id = UUID()
        var title: String
        var column: UUID?

        func ruleViolations() -> [RuleViolation] {
            [RuleViolation.blank(title, at: "title")].compactMap { $0 }
        }
    }

    /// What each step of the article left, for the test to check.
    struct Steps {
        var planned: Board
        var cleared: Board
        var shown: [RuleViolation]
        var merge: DocumentMerge<Board>
    }

    static func run(controller: DocumentController<Board>) throws -> Steps {
        try controller.write(message: "Plan the week", author: "Ada") { board in
            let doing = Column(name: "Doing")
            board.columns.append(doing)
            board.cards.append(Card(title: "Water the beds", column: doing.id))
        }
        let planned = controller.document

        try controller.write(message: "Clear the board", author: "Ada") { board in
            board.columns.removeAll { $0.name == "Doing" }
        }
        let cleared = controller.document

        var shown: [RuleViolation] = []
        func show(_ violations: [RuleViolation]) { shown = violations }
        do {
            try controller.write(message: "Two blank cards", author: "Ada") { board in
                board.cards.append(Card(title: ""))
                board.cards.append(Card(title: " "))
            }
        } catch let error as DocumentKitError where error.code == .invalidDocument {
            show(error.violations)
        }

        let base = controller.document
        var ours = base
        ours.cards.append(Card(title: "Buy seeds"))
        var theirs = base
        theirs.cards.append(Card(title: "Dig the beds"))
        let merge = try Board.merge(ours, theirs, base: base)
        return Steps(planned: planned, cleared: cleared, shown: shown, merge: merge)
    }
}

/// The settings of KeyValueStorageGuide.md.
extension KeyValueStorage {
    var units: KeyValueContainer<String> { makeContainer(default: "metric") }
    var recentRecipes: KeyValueContainer<[String]> { makeContainer(default: []) }
}

extension BundleState {
    var selectedCard: KeyValueContainer<UUID> { storage.makeContainer() }
}

enum KeyValueStorageGuide {
    static func preferences(preferencesURL: URL) throws -> (preferences: PreferencesFile, units: String?) {
        let preferences = PreferencesFile(url: preferencesURL)
        try preferences.units.set("imperial")
        try preferences.recentRecipes.set(["pancakes.recipe"])
        let units = try preferences.units.get()
        return (preferences, units)
    }

    static func state(controller: DocumentController<Transactions.Board>, card: Transactions.Card, url: URL) throws -> UUID? {
        try controller.state.selectedCard.set(card.id)
        let selected = try BundleState(bundle: url).selectedCard.get()
        return selected
    }
}
