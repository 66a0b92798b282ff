import Foundation
import Testing

@testable import DocumentKit

/// What a push did and how a version is signed are enums in the library, and spelled in
/// `--json` as scripts read them: these spellings are an interface.
@Suite struct OutcomeSpellingTests {
    private func spelled<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
    }

    @Test func pushOutcomesKeepTheirSpellings() throws {
        let outcomes: [RemotePusher.Outcome] = [.upToDate, .created, .pushed, .wouldCreate, .wouldPush]
        #expect(
            try outcomes.map(spelled) == [
                #"["up-to-date"]"#, #"["created"]"#, #"["pushed"]"#, #"["would-create"]"#, #"["would-push"]"#
            ])
    }

    @Test func signatureStatusesKeepTheirSpellings() throws {
        let statuses: [BundleVerifier.SignatureStatus] = [.signed, .untrusted, .unsigned, .invalid]
        #expect(try statuses.map(spelled) == [#"["signed"]"#, #"["untrusted"]"#, #"["unsigned"]"#, #"["invalid"]"#])
    }
}
