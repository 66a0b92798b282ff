import Foundation
import Testing

@testable import DocumentKit

/// A restore makes an old document the head again, and its root tree is one the history
/// already stores, by place, in an older version's segment (FORMAT.md §12.3): no segment
/// index finds it. A remote holding such a head must still clone, pull and import, as the
/// bundle itself reads it; before this was fixed every clone of a project with a restore in
/// it failed ("object … is in none of the history's segments").
@Suite struct RemoteRestoredVersionTests {
    typealias Remote = RemoteCommandTests.Remote

    @Test(
        .enabled(if: RemoteCommandTests.enabled, RemoteCommandTests.skipReason),
        arguments: [RemoteCommandTests.Kind.folder, .moto])
    func aHeadThatRestoresAnOldVersionClonesAndPulls(_ kind: RemoteCommandTests.Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try remote.succeed(["new", "b.dkproj", "--name", "one"])
        for name in ["two", "three", "four"] { try remote.succeed(["set", "b.dkproj", "name", name]) }
        try remote.succeed(["push", "b.dkproj", remote.address])
        try FileManager.default.copyItem(atPath: directory.path("b.dkproj"), toPath: directory.path("behind.dkproj"))
        try remote.succeed(["restore", "b.dkproj", "2"])
        try remote.succeed(["push", "b.dkproj", remote.address])

        let bundle = { (name: String) in try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name)) }
        try remote.succeed(["clone", remote.address, "-o", "c.dkproj"])
        #expect(try bundle("c.dkproj").manifest.versions.map(\.id) == bundle("b.dkproj").manifest.versions.map(\.id))
        #expect(try bundle("c.dkproj").headDocumentData() == bundle("b.dkproj").headDocumentData())
        #expect(try remote.succeed(["get", "c.dkproj", "name"]).output == "two\n")
        try remote.succeed(["validate", "--deep", "c.dkproj"])

        try remote.succeed(["pull", "behind.dkproj", remote.address])
        #expect(try bundle("behind.dkproj").manifest.head == bundle("b.dkproj").manifest.head)
        #expect(try remote.succeed(["get", "behind.dkproj", "name"]).output == "two\n")
    }
}
