import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// The author a save records when the caller names none, from the user's settings.
@Suite struct AuthorshipTests {
    private func settings(_ values: [String: JSONValue]) -> UserSettings {
        UserSettings(storage: InMemoryStorage(values: values))
    }

    @Test func theConfiguredAuthorIsNameAndEmailAsGitWritesThem() throws {
        let login = Authorship.loginName()
        #expect(try Authorship.configuredAuthor(settings: settings([:])) == nil)
        #expect(
            try Authorship.configuredAuthor(settings: settings(["authorName": .string("Ada Lovelace")]))
                == "Ada Lovelace")
        #expect(
            try Authorship.configuredAuthor(
                settings: settings(["authorName": .string("Ada Lovelace"), "authorEmail": .string("ada@example.org")]))
                == "Ada Lovelace <ada@example.org>")
        #expect(
            try Authorship.configuredAuthor(settings: settings(["authorEmail": .string("ada@example.org")]))
                == "\(login) <ada@example.org>")
        #expect(
            try Authorship.configuredAuthor(
                settings: settings(["authorName": .string("  "), "authorEmail": .string("")])) == nil, "blank is unset")
    }

    @Test func anExplicitAuthorWinsAndUnreadableSettingsAreReported() throws {
        #expect(try Authorship.author("Charles", settings: settings(["authorName": .string("Ada")])) == "Charles")
        #expect(try Authorship.author(nil, settings: settings(["authorName": .string("Ada")])) == "Ada")
        #expect(try Authorship.author(nil, settings: settings([:])) == Authorship.loginName())
        #expect(
            try Authorship.author("Charles", settings: settings(["authorName": .integer(42)])) == "Charles",
            "not even read")
        #expect(throws: DocumentKitError.self) {
            try Authorship.author(nil, settings: settings(["authorName": .integer(42)]))
        }
    }
}
