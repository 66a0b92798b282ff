import Foundation
import Testing

@testable import DocumentKit

/// Each kind of stage on its own, on the Note schemas (NoteSchemas.swift).
@Suite struct MigrationStageTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func aLightweightStageFillsInTheNewDefaults() throws {
        let stage = NoteStages.addTags
        #expect(stage.id == "add-tags" && stage.kind == .lightweight)
        #expect(
            stage.fromVersion.versionIdentifier == SchemaVersion(1, 0, 0)
                && stage.toVersion.versionIdentifier == SchemaVersion(2, 0, 0))
        #expect(text(try stage.apply(to: Data(#"{"text": "milk"}"#.utf8))) == #"{"tags":[],"text":"milk"}"#)
    }

    @Test func aLightweightStageRefusesAFieldTheNewModelDoesNotKnow() {
        #expect {
            try NoteStages.addTags.apply(to: Data(#"{"text": "milk", "colour": "red"}"#.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .invalidDocument && error.location == "colour"
                && error.message
                    == """
                    unknown field 'colour' (known fields: tags, text) (migrating schema 1.0.0 to 2.0.0, stage \
                    'add-tags')
                    """
        }
    }

    @Test func aCustomStageTransformsTheOldModelIntoTheNewOne() throws {
        let stage = NoteStages.renameText
        #expect(stage.id == "rename-text" && stage.kind == .custom)
        #expect(
            text(try stage.apply(to: Data(#"{"text": "milk", "tags": ["shop"]}"#.utf8)))
                == #"{"body":"milk","tags":["shop"]}"#)
    }

    @Test func aCustomStageDecodesTheOldVersionStrictly() {
        #expect {
            try NoteStages.renameText.apply(to: Data(#"{"body": "already new"}"#.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.location == "body" && error.message.hasPrefix("unknown field 'body'")
                && error.message.hasSuffix("stage 'rename-text')")
        }
    }

    @Test func hooksSeeTheOldValueBeforeAndBothAfter() throws {
        // The hooks run on the stage's own thread, one after the other: a box records them.
        final class Record: @unchecked Sendable { var events: [String] = [] }
        let record = Record()
        let stage = MigrationStage.custom(
            id: "shout", fromVersion: NoteV2.self, toVersion: NoteV3.self,
            willMigrate: { old in record.events.append("will \(old.text)") },
            migrate: { old in
                record.events.append("migrate \(old.text)")
                return NoteV3.Note(body: old.text.uppercased(), tags: old.tags)
            },
            didMigrate: { old, new in record.events.append("did \(old.text) -> \(new.body)") })
        #expect(text(try stage.apply(to: Data(#"{"text": "milk"}"#.utf8))) == #"{"body":"MILK","tags":[]}"#)
        #expect(record.events == ["will milk", "migrate milk", "did milk -> MILK"])
    }

    @Test func aHookThatThrowsStopsTheStageWithItsReason() {
        struct Refusal: Error, CustomStringConvertible { var description: String { "notes must not be empty" } }
        let refusing = MigrationStage.custom(
            id: "check", fromVersion: NoteV2.self, toVersion: NoteV3.self,
            willMigrate: { old in if old.text.isEmpty { throw Refusal() } },
            migrate: { old in NoteV3.Note(body: old.text, tags: old.tags) })
        #expect {
            try refusing.apply(to: Data(#"{"text": ""}"#.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .invalidDocument
                && error.message == "notes must not be empty (migrating schema 2.0.0 to 3.0.0, stage 'check')"
        }
        let checking = MigrationStage.custom(
            id: "verify", fromVersion: NoteV2.self, toVersion: NoteV3.self,
            migrate: { old in NoteV3.Note(body: "", tags: old.tags) },
            didMigrate: { old, new in
                if old.text != new.body {
                    throw DocumentKitError(.invalidDocument, "the text was lost", location: "body")
                }
            })
        #expect {
            try checking.apply(to: Data(#"{"text": "milk"}"#.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.location == "body"
                && error.message == "the text was lost (migrating schema 2.0.0 to 3.0.0, stage 'verify')"
        }
    }

    @Test func deeplyNestedJSONIsRefusedBeforeAStageDecodesIt() {
        let json = Data((#"{"text": "#).utf8) + Data(String(repeating: "[", count: 10_000).utf8)
        #expect {
            try NoteStages.addTags.apply(to: json)
        } throws: { error in
            (error as! DocumentKitError).code == .malformedInput
        }
    }
}
