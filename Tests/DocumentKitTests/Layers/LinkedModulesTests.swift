import Foundation
import Testing

/// docctl leaves the HTTP stack to its S3 helper (DESIGN.md, "docctl hands S3 to
/// docctl-s3"): building docctl alone, as the demo does, must not build SwiftNIO,
/// async-http-client or NIOSSL's BoringSSL, so nothing of theirs may be linked into it.
/// A dependency added to a target docctl links would put them back; this finds their
/// symbols in the binary, as the helper has them.
@Suite struct LinkedModulesTests {
    /// Names that only the HTTP stack's code carries: its Swift modules as symbols mangle
    /// them, and the prefix of NIOSSL's copy of BoringSSL.
    static let httpStack = ["7NIOCore", "15AsyncHTTPClient", "CNIOBoringSSL_"]

    private func symbols(of tool: String) throws -> Data {
        try Data(
            contentsOf: Run.docctlURL.deletingLastPathComponent().appendingPathComponent(tool), options: .alwaysMapped)
    }

    @Test func docctlLinksNoHTTPStackAndItsS3HelperDoes() throws {
        let docctl = try symbols(of: "docctl")
        let helper = try symbols(of: "docctl-s3")
        for name in Self.httpStack {
            #expect(docctl.range(of: Data(name.utf8)) == nil, "docctl links \(name)")
            #expect(helper.range(of: Data(name.utf8)) != nil, "the search finds \(name) where it is linked")
        }
    }
}
