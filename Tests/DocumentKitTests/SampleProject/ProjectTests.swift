import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

@Suite struct ProjectTests {
    @Test func decodingCompletesWhatAUserLeavesOut() throws {
        let json = Data(#"{"name": "Garden", "tasks": [{"title": "Dig"}]}"#.utf8)
        let context = DocumentDecodingContext(now: Date(timeIntervalSince1970: 1_767_225_600), seed: "seed")
        let project = try Project.decode(json, context: context)
        #expect(project.createdAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(project.isArchived == false)
        #expect(project.tasks.count == 1)
        #expect(project.tasks[0].priority == .medium)
        #expect(project.tasks[0].status == .todo)
        #expect(project.tasks[0].notes == "")
        #expect(project.tasks[0].tags.isEmpty)
        #expect(project.summary == "")
        // New ids are derived from the seed: the same edit replayed gives the same id.
        let again = try Project.decode(json, context: DocumentDecodingContext(now: .distantPast, seed: "seed"))
        #expect(again.tasks[0].id == project.tasks[0].id)
        let other = try Project.decode(json, context: DocumentDecodingContext(now: .distantPast, seed: "other"))
        #expect(other.tasks[0].id != project.tasks[0].id)
        #expect(project.tasks[0].id.uuidString.dropFirst(14).first == "8", "RFC 9562 version 8")
    }

    @Test func unknownFieldsAreRefusedWithTheirPath() {
        let json = Data(#"{"name": "Garden", "tasks": [{"title": "Dig", "titel": "typo"}]}"#.utf8)
        #expect {
            try Project.decode(json)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .invalidDocument && error.description.contains("tasks[0].titel: unknown field 'titel'")
        }
    }

    @Test func typeErrorsNameThePathAndTheExpectedType() {
        let json = Data(#"{"name": 42}"#.utf8)
        #expect {
            try Project.decode(json)
        } throws: { error in
            (error as! DocumentKitError).description.hasPrefix("name: expected a string, found number")
        }
    }

    @Test(arguments: [
        (#"{"name": " "}"#, "name: must not be empty"),
        (#"{"name": "x", "tasks": [{"title": ""}]}"#, "tasks[0].title: must not be empty"),
        (#"{"name": "x", "tasks": [{"title": "a", "priority": "urgent"}]}"#, "'urgent' is not a priority"),
        (#"{"name": "x", "createdAt": "yesterday"}"#, "createdAt: 'yesterday' is not a date"),
        (
            #"{"name": "x", "tasks": [{"id": "00000000-0000-4000-8000-000000000001", "title": "a"}, {"id": "00000000-0000-4000-8000-000000000001", "title": "b"}]}"#,
            "tasks[1].id"
        )
    ])
    func invalidProjectsAreRefused(json: String, message: String) {
        #expect {
            try Project.decode(Data(json.utf8))
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .invalidDocument && error.description.contains(message)
        }
    }

    @Test func encodingIsCanonicalAndRoundTrips() throws {
        var project = Fixtures.project()
        project.tasks[1].dueDate = DocumentDates.parse("2027-03-01")
        project.thumbnail = BlobReference(data: Fixtures.png, mediaType: "image/png")
        let json = try project.encodedJSON()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""dueDate" : "2027-03-01T00:00:00Z""#))
        #expect(text.contains(#""$blob" : "\#(ObjectDigest.of(Fixtures.png).hex)""#))
        #expect(text.range(of: "createdAt")!.lowerBound < text.range(of: "isArchived")!.lowerBound, "keys sorted")
        let decoded = try Project.decode(json)
        #expect(decoded == project)
        #expect(try decoded.encodedJSON() == json)
    }

    @Test func datesAcceptCommonFormsAndPrintInUTC() {
        #expect(DocumentDates.parse("2026-11-22") == Date(timeIntervalSince1970: 1_795_305_600))
        #expect(DocumentDates.parse("2026-11-22T10:00:00+02:00") == DocumentDates.parse("2026-11-22T08:00:00Z"))
        #expect(DocumentDates.parse("2026-11-22T08:00:00.250Z") == DocumentDates.parse("2026-11-22T08:00:00Z"))
        #expect(DocumentDates.parse("2026-13-01") == nil)
        #expect(DocumentDates.parse("2026-11-22T08:00") == nil)
        #expect(DocumentDates.format(Date(timeIntervalSince1970: 1_795_305_600)) == "2026-11-22T00:00:00Z")
    }

    @Test func contentTypesConformThroughTheRegistry() {
        #expect(Project.contentType.conforms(to: .documentBundle))
        #expect(Project.contentType.conforms(to: .zip))
        #expect(!Project.contentType.conforms(to: .json))
        // A program registers its types in its configuration (docctl registers Project).
        var configuration = DocumentKitConfiguration()
        #expect(configuration.contentTypes.type(filenameExtension: "dkproj") == nil)
        configuration.documentTypes = [Project.self]
        #expect(configuration.contentTypes.type(filenameExtension: "DKPROJ") == Project.contentType)
        #expect(
            configuration.contentTypes.type(mimeType: "application/vnd.documentkit.project+zip") == Project.contentType)
    }

    @Test func deeplyNestedJSONIsRefusedBeforeParsing() {
        let json = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: DocumentKitError.self) { try JSONValue.parse(json) }
        #expect(throws: DocumentKitError.self) { try Project.decode(json) }
    }
}
