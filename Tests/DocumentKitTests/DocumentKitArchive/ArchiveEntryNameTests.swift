import Foundation
import Testing

@testable import DocumentKit

@Suite struct ArchiveEntryNameTests {
    @Test(arguments: [
        "a", "a/b", "objects/ab/cdef", "Übersicht/日本語.txt", ".hidden", "a/..b", "a/b..", "...", "mimetype"
    ])
    func acceptsSafeNames(_ name: String) throws {
        try ArchiveEntryName.validate(name)
    }

    @Test(arguments: [
        "", "/x", "/", "..", "../evil", "a/../b", "a/..", "a\\b", "C:\\x", "a//b", "a/", "./a", "a/./b", ".",
        "a\u{0}b", "a\nb", "evil\nerror: forged", "a\tb", "\u{1B}[2J", "a\u{7F}", "a\u{85}b", "a\u{9F}"
    ])
    func refusesUnsafeNames(_ name: String) {
        let error = expectArchiveError(.unsafeEntry) { try ArchiveEntryName.validate(name) }
        #expect(error?.entry == name)
    }

    @Test func acceptsTheLongestNameOnly() throws {
        try ArchiveEntryName.validate(String(repeating: "x", count: 4096))
        expectArchiveError(.unsafeEntry) { try ArchiveEntryName.validate(String(repeating: "x", count: 4097)) }
        expectArchiveError(.unsafeEntry) { try ArchiveEntryName.validate(String(repeating: "é", count: 2049)) }
    }

    @Test func invalidUTF8IsUnsafeNotRepaired() throws {
        expectArchiveError(.unsafeEntry) { _ = try ArchiveEntryName.decode([0x61, 0xFF, 0x62]) }
        expectArchiveError(.unsafeEntry) { _ = try ArchiveEntryName.decode([0xC3]) }  // cut-off sequence
        expectArchiveError(.unsafeEntry) { _ = try ArchiveEntryName.decode([0xED, 0xA0, 0x80]) }  // surrogate
        #expect(try ArchiveEntryName.decode(Array("é/ü".utf8)) == "é/ü")
    }

    @Test func collisionKeysFoldCaseAndNormalization() {
        let key = ArchiveEntryName.collisionKey
        #expect(key("A.txt") == key("a.txt"))
        #expect(key("\u{E9}") == key("e\u{301}"))  // NFC vs NFD
        #expect(Array(key("\u{C9}").utf8) == Array(key("E\u{301}").utf8))  // same bytes, not just equal
        #expect(key("a.txt") != key("b.txt"))
        #expect(key("dir/a") != key("dir-a"))
    }
}
