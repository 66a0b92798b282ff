import Foundation
import Testing

@testable import DocumentKit

// Plans that are wrong in one way each. A plan is a type, so each needs its own.
private enum NoSchemas: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [] }
    static var stages: [MigrationStage] { [] }
}
private enum SchemaTwice: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV1.self] }
    static var stages: [MigrationStage] { [] }
}
private enum SchemasNewestFirst: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV2.self, NoteV1.self] }
    static var stages: [MigrationStage] { [] }
}
private enum Gap: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] { [NoteStages.addTags] }
}
private enum DuplicateID: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] {
        [NoteStages.addTags, .lightweight(id: "add-tags", fromVersion: NoteV2.self, toVersion: NoteV3.self)]
    }
}
private enum EmptyID: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] {
        [NoteStages.addTags, .lightweight(id: "", fromVersion: NoteV2.self, toVersion: NoteV3.self)]
    }
}
private enum StagesOutOfOrder: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] { [NoteStages.renameText, NoteStages.addTags] }
}
private enum SkippingStage: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] {
        [.lightweight(id: "all-at-once", fromVersion: NoteV1.self, toVersion: NoteV3.self)]
    }
}
private enum BackwardStage: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV2.self] }
    static var stages: [MigrationStage] { [.lightweight(id: "back", fromVersion: NoteV2.self, toVersion: NoteV1.self)] }
}
private enum TwoStagesFromOneSchema: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { NotePlan.schemas }
    static var stages: [MigrationStage] {
        [
            NoteStages.addTags, .lightweight(id: "add-tags-again", fromVersion: NoteV1.self, toVersion: NoteV2.self),
            NoteStages.renameText
        ]
    }
}
private enum UnlistedSchema: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV2.self] }
    static var stages: [MigrationStage] { [NoteStages.addTags, NoteStages.renameText] }
}
private enum Impostor: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(id: "add-tags", fromVersion: NoteV1Impostor.self, toVersion: NoteV2.self)]
    }
}
private enum EndsBeforeTheDocument: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV2.self] }
    static var stages: [MigrationStage] { [NoteStages.addTags] }
}

/// A document whose plan ends with a schema whose model is another type.
private struct Orphan: CodableDocument {
    static let contentType = ContentType(
        identifier: "org.documentkit.test.orphan", mimeType: "application/vnd.documentkit.test.orphan+zip")
    static var migrationPlan: (any SchemaMigrationPlan.Type)? { EndsBeforeTheDocument.self }
    var text: String
}

/// A document that declares a schema version its plan does not end with.
private struct Mismatched: CodableDocument {
    static let contentType = ContentType(
        identifier: "org.documentkit.test.mismatched", mimeType: "application/vnd.documentkit.test.mismatched+zip")
    static var migrationPlan: (any SchemaMigrationPlan.Type)? { NotePlan.self }
    static let schemaVersion = SchemaVersion(4, 0, 0)
    var body: String
}

/// A wrong plan is a programming error, refused with what is wrong whenever it is used.
@Suite struct SchemaMigrationPlanTests {
    private func refusal(_ plan: any SchemaMigrationPlan.Type) -> DocumentKitError? {
        do {
            _ = try SchemaMigrator(plan: plan, documentName: "Note")
            return nil
        } catch {
            return error as? DocumentKitError
        }
    }

    @Test func theNotePlanIsValid() {
        #expect(refusal(NotePlan.self) == nil)
    }

    /// A plan as a test argument (arguments must be `Sendable`; a metatype is immutable).
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        var plan: any SchemaMigrationPlan.Type
        var problem: String
        init(_ plan: any SchemaMigrationPlan.Type, _ problem: String) {
            self.plan = plan
            self.problem = problem
        }
        var testDescription: String { "\(plan)" }
    }

    @Test(arguments: [
        Case(NoSchemas.self, "lists no schemas"),
        Case(SchemaTwice.self, "lists schema 1.0.0 twice"),
        Case(SchemasNewestFirst.self, "lists schema 1.0.0 after 2.0.0; schemas go oldest first"),
        Case(Gap.self, "no stage migrates from 2.0.0 to 3.0.0"),
        Case(DuplicateID.self, "two stages have the id 'add-tags'"),
        Case(EmptyID.self, "stage 2 has an empty id"),
        Case(
            StagesOutOfOrder.self,
            """
            stage 'rename-text' (2.0.0 → 3.0.0) is listed before stage 'add-tags' (1.0.0 → 2.0.0); stages run in \
            the order listed, oldest first
            """
        ),
        Case(
            SkippingStage.self,
            "stage 'all-at-once' goes from 1.0.0 to 3.0.0, past 2.0.0; a stage goes from one schema to the next"),
        Case(BackwardStage.self, "stage 'back' goes from 2.0.0 back to 1.0.0"),
        Case(TwoStagesFromOneSchema.self, "stages 'add-tags' and 'add-tags-again' both migrate from 1.0.0"),
        Case(
            UnlistedSchema.self,
            "stage 'rename-text' names schema 3.0.0, which the plan does not list (it lists 1.0.0, 2.0.0)"),
        Case(Impostor.self, "stage 'add-tags' names NoteV1Impostor for schema 1.0.0, but the plan lists NoteV1")
    ])
    func aWrongPlanIsRefusedSayingWhy(_ wrong: Case) throws {
        let error = try #require(refusal(wrong.plan))
        #expect(error.code == .invalidMigrationPlan)
        #expect(error.exitStatus == 70)
        #expect(error.message == "migration plan \(wrong.plan) of Note \(wrong.problem)")
    }

    @Test func aPlanMustEndWithTheDocumentTypeItself() {
        #expect {
            try Orphan.decode(Data(#"{"text": "x"}"#.utf8), schema: "1.0.0")
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .invalidMigrationPlan
                && error.message
                    == """
                    migration plan EndsBeforeTheDocument of Orphan ends with NoteV2, whose model is Note, not \
                    Orphan
                    """
        }
        #expect {
            try Mismatched.migration(from: "1.0.0")
        } throws: { error in
            (error as! DocumentKitError).message
                == "migration plan NotePlan of Mismatched ends with schema 3.0.0, but Mismatched writes 4.0.0"
        }
    }
}
