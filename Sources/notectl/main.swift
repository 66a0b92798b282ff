import DocumentKit
import DocumentKitCLI

// An app's own command-line tool: its document type, and docctl's commands over it.
// The tests run it (Tests/DocumentKitTests/DocumentKitCLI/AppToolTests.swift) beside docctl, which
// does not know this type and edits its bundles as schema-less JSON.

/// A note: a name, a text and an optional picture, with one rule of its own.
struct Note: CodableDocument {
    static let contentType = ContentType(
        identifier: "com.example.note", filenameExtensions: ["note"],
        mimeType: "application/vnd.example.note+zip", conformsTo: [.documentBundle])
    static let schemaVersion = SchemaVersion(1, 0, 0)
    static let defaultAttachmentPath: String? = "picture"

    var name: String
    var text: String?
    var picture: BlobReference?

    func ruleViolations() -> [RuleViolation] {
        [RuleViolation.blank(name, at: "name")].compactMap { $0 }
    }
}

DocumentTool.run(name: "notectl", types: [Note.self])
