import Foundation
import Testing

@testable import DocumentKit

/// Reading exported defaults domains: formats recognised by content, the known keys and
/// their types, the derived draft ids, and the errors for everything else.
@Suite struct LegacyDefaultsTests {
    @Test(arguments: [LegacyDefaults.Format.xml, .binary, .json])
    func everyFormatGivesTheSameDrafts(format: LegacyDefaults.Format) throws {
        let directory = try TemporaryDirectory()
        // A name that says nothing: the format is recognised by content.
        let url = try LegacyDefaultsFixtures.write(format, to: "export.data", in: directory.url)
        let defaults = try LegacyDefaults(contentsOf: url)
        #expect(defaults.format == format)
        #expect(defaults.drafts == LegacyDefaultsFixtures.drafts)
        #expect(defaults.blankDrafts == 1)
        #expect(defaults.projectName == "Blog")
        #expect(defaults.unknownKeys == LegacyDefaultsFixtures.unknownKeys)
        #expect(
            defaults.keys == [
                "NSWindow Frame Main", "draft_post_dates", "draft_posts", "lastOpened", "launchCount", "project_name",
                "sync"
            ])
        #expect(try LegacyDefaults(data: try LegacyDefaultsFixtures.data(format)) == defaults)
    }

    @Test func draftIDsArePinnedVersion8UUIDsOfTheTextAndItsOccurrence() throws {
        // Pinned: an id that changed would make every later import add its drafts again.
        #expect(
            LegacyDefaults.draftID(content: "Hello", occurrence: 1).uuidString == "1C6A3281-3816-8C72-9722-335263F9C578"
        )
        let id = LegacyDefaults.draftID(content: "Hello, world", occurrence: 2)
        let digest = ObjectDigest.of(Data("documentkit.legacy-defaults:draft_posts:2:Hello, world".utf8)).hex
            .uppercased()
        let hex = id.uuidString.replacingOccurrences(of: "-", with: "")
        // The first 16 bytes of the SHA-256, but for the version (8) and the variant (10xx).
        #expect(hex.prefix(12) == digest.prefix(12))
        #expect(hex.dropFirst(12).first == "8")
        #expect(hex.dropFirst(13).prefix(3) == digest.dropFirst(13).prefix(3))
        #expect("89AB".contains(hex.dropFirst(16).first!))
        #expect(hex.dropFirst(17) == digest.dropFirst(17).prefix(15))
        #expect(id != LegacyDefaults.draftID(content: "Hello, world", occurrence: 1))
        #expect(id != LegacyDefaults.draftID(content: "Hello, world!", occurrence: 2))
        // Texts equal to Swift but not in their bytes are different texts, counted apart.
        let composed = try LegacyDefaults(data: Data(#"{"draft_posts": ["caf\u00e9", "cafe\u0301"]}"#.utf8))
        #expect(
            composed.drafts.map(\.id) == [
                LegacyDefaults.draftID(content: "caf\u{e9}", occurrence: 1),
                LegacyDefaults.draftID(content: "cafe\u{301}", occurrence: 1)
            ])
    }

    @Test func withoutDatesDraftsHaveNoneAndMissingKeysGiveNothing() throws {
        let plain = try LegacyDefaults(data: Data(#"{"draft_posts": ["a", "", "\n\t"], "project_name": "  "}"#.utf8))
        #expect(plain.drafts.map(\.createdAt) == [nil])
        #expect(plain.blankDrafts == 2)
        #expect(plain.projectName == nil, "a blank name is no name")
        let empty = try LegacyDefaults(data: Data("{}".utf8))
        #expect(empty.drafts.isEmpty && empty.blankDrafts == 0 && empty.keys.isEmpty)
        let xml = try LegacyDefaults(
            data: Data("\u{FEFF}\n  <?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8))
        #expect(xml.format == .xml, "a byte order mark and white space may come first")
    }

    /// What a known key of the wrong type says, with its key path; nothing is read past it.
    @Test(arguments: [
        (#"{"draft_posts": "Hello"}"#, #"draft_posts: expected an array of strings, found "Hello" (a string)"#),
        (#"{"draft_posts": ["a", 42]}"#, "draft_posts[1]: expected a string, found 42 (a number)"),
        (#"{"draft_posts": ["a", null]}"#, "draft_posts[1]: expected a string, found null"),
        (#"{"draft_posts": [["a"]]}"#, "draft_posts[0]: expected a string, found […] (an array)"),
        (#"{"draft_posts": {"a": 1}}"#, "draft_posts: expected an array of strings, found {…} (a dictionary)"),
        (
            #"{"draft_posts": ["a"], "draft_post_dates": "2025-01-01"}"#,
            #"draft_post_dates: expected an array of dates, found "2025-01-01" (a string)"#
        ),
        (
            #"{"draft_posts": ["a", "b"], "draft_post_dates": ["2025-01-01"]}"#,
            "draft_post_dates: needs one date for each of the 2 strings of draft_posts, has 1"
        ),
        (
            #"{"draft_posts": ["a"], "draft_post_dates": ["soon"]}"#,
            #"draft_post_dates[0]: expected a date (or a string such as 2026-11-22T09:30:00Z), found "soon" (a string)"#
        ),
        (#"{"draft_post_dates": []}"#, "draft_post_dates: there is no draft_posts for the dates to go with"),
        (#"{"project_name": true}"#, "project_name: expected a string, found true (a boolean)")
    ])
    func knownKeysOfTheWrongTypeAreLocatedErrors(json: String, message: String) throws {
        let error = try #require(throws: DocumentKitError.self) { try LegacyDefaults(data: Data(json.utf8)) }
        #expect(error.code == .malformedInput)
        #expect(error.description == message)
    }

    @Test func propertyListValuesOfTheWrongTypeAreNamedForWhatTheyAre() throws {
        func message(_ posts: [Any]) throws -> String {
            let data = try PropertyListSerialization.data(
                fromPropertyList: ["draft_posts": posts], format: .binary, options: 0)
            return try #require(throws: DocumentKitError.self) { try LegacyDefaults(data: data) }.description
        }
        // 1 and 0 are numbers, not booleans, though on Linux they cast to Bool.
        #expect(try message(["a", 1]) == "draft_posts[1]: expected a string, found 1 (a number)")
        #expect(try message([0]) == "draft_posts[0]: expected a string, found 0 (a number)")
        #expect(try message([false]) == "draft_posts[0]: expected a string, found false (a boolean)")
        #expect(try message([2.5]) == "draft_posts[0]: expected a string, found 2.5 (a number)")
        #expect(try message([Data([1, 2])]) == "draft_posts[0]: expected a string, found 2 bytes (data)")
        #expect(
            try message([Date(timeIntervalSince1970: 0)])
                == "draft_posts[0]: expected a string, found 1970-01-01T00:00:00Z (a date)")
    }

    @Test(arguments: [
        ("hello", "is neither a property list (XML or binary) nor a JSON object"),
        ("", "is neither a property list (XML or binary) nor a JSON object"),
        ("[1, 2]", "is neither a property list (XML or binary) nor a JSON object"),
        (#"{"a": 1,}"#, "not valid JSON: expected a member name in quotes at line 1, column 9"),
        (#"{"a": 1, "a": 2}"#, "not valid JSON: duplicate member name 'a' at line 1, column 10"),
        (
            #"<?xml version="1.0"?><plist><dict><key>a</key>"#,
            "not a valid XML property list: value missing for key inside <dict> at line 1"
        ),
        (
            "<html><body>Not found</body></html>",
            "not a valid XML property list: encountered unknown tag html on line 1"
        ),
        // Read by Foundation as an old-style property list (data), which it is not meant to be.
        ("<0a0b>", "not a valid XML property list"),
        (
            #"<?xml version="1.0"?><plist><array><string>a</string></array></plist>"#,
            "expected a dictionary of defaults at the top level, found […] (an array)"
        ),
        ("bplist00\0\0\0\0", "not a valid binary property list")
    ])
    func whatIsNotAnExportIsRefused(text: String, message: String) throws {
        let error = try #require(throws: DocumentKitError.self) { try LegacyDefaults(data: Data(text.utf8)) }
        #expect(error.code == .malformedInput)
        #expect(error.description == message)
    }

    @Test func nestingIsLimitedInBothPropertyListFormats() throws {
        var nested: Any = ["x"]
        for _ in 0..<600 { nested = [nested] }
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["draft_posts": nested], format: .binary, options: 0)
        #expect(throws: DocumentKitError.self) { try LegacyDefaults(data: binary) }
        let depth = 100_000
        let xml =
            "<?xml version=\"1.0\"?><plist><dict><key>k</key>" + String(repeating: "<array>", count: depth)
            + String(repeating: "</array>", count: depth) + "</dict></plist>"
        let error = try #require(throws: DocumentKitError.self) { try LegacyDefaults(data: Data(xml.utf8)) }
        #expect(error.description.hasPrefix("not a valid XML property list: too many nested arrays or dictionaries"))
    }

    @Test func filesAreNamedInErrorsAndOnlyRegularFilesOfBoundedSizeAreRead() throws {
        let directory = try TemporaryDirectory()
        func error(_ name: String) throws -> DocumentKitError {
            try #require(throws: DocumentKitError.self) {
                try LegacyDefaults(contentsOf: directory.url.appendingPathComponent(name))
            }
        }
        #expect(try error("missing.plist").code == .missingInput)
        #expect(
            try error("missing.plist").description
                == "\(directory.path("missing.plist")): cannot open: No such file or directory")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        #expect(try error("folder").description == "\(directory.path("folder")): is a folder, not a defaults export")
        #expect(mkfifo(directory.path("pipe"), 0o600) == 0)
        #expect(
            try error("pipe").description == "\(directory.path("pipe")): is not a regular file",
            "refused before opening, which would wait")
        // Sparse: the size is refused before a byte is read.
        let big = FileManager.default.createFile(atPath: directory.path("big.plist"), contents: nil)
        #expect(big)
        let handle = try FileHandle(forWritingTo: directory.url.appendingPathComponent("big.plist"))
        try handle.truncate(atOffset: UInt64(LegacyDefaults.maximumBytes + 1))
        try handle.close()
        #expect(try error("big.plist").code == .malformedInput)
        #expect(
            try error("big.plist").description
                == "\(directory.path("big.plist")): is larger than 16 MiB, the limit for a defaults export")
        try Fixtures.write(Data("{\"draft_posts\": 1}".utf8), to: "bad.json", in: directory.url)
        #expect(
            try error("bad.json").description
                == "\(directory.path("bad.json")): draft_posts: expected an array of strings, found 1 (a number)")
    }

    /// The file swift-corelibs-foundation keeps a suite in is an export as it is.
    @Test func readsTheFileUserDefaultsKeeps() throws {
        let directory = try TemporaryDirectory()
        let defaults = try #require(UserDefaults(suiteName: directory.path("com.example.blog")))
        defaults.set(["From UserDefaults", "Again"], forKey: "draft_posts")
        defaults.set("Blog", forKey: "project_name")
        defaults.set(3, forKey: "launchCount")
        defaults.synchronize()
        let read = try LegacyDefaults(contentsOf: directory.url.appendingPathComponent("com.example.blog.plist"))
        #expect(read.drafts.map(\.content) == ["From UserDefaults", "Again"])
        #expect(read.projectName == "Blog")
        #expect(read.unknownKeys == ["launchCount"])
    }

    /// A binary property list that Foundation did not write: Python's plistlib.
    @Test(.enabled(if: ExternalTool.python3.isAvailable, "needs python3"))
    func readsBinaryPropertyListsOfOtherWriters() throws {
        let directory = try TemporaryDirectory()
        let script = """
            import datetime, plistlib, sys
            domain = {"draft_posts": ["Hello, world", "  ", "Second post", "Hello, world"],
                      "draft_post_dates": [datetime.datetime(2025, 1, d, 10, 0, 0) for d in (1, 2, 3, 4)],
                      "project_name": "Blog", "launchCount": 7}
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(domain, f, fmt=plistlib.FMT_BINARY)
            """
        try ExternalTool.python3.run(["-c", script, directory.path("python.plist")])
        let read = try LegacyDefaults(contentsOf: directory.url.appendingPathComponent("python.plist"))
        #expect(read.format == .binary)
        var expected = LegacyDefaultsFixtures.drafts
        expected[2].createdAt = Date(timeIntervalSince1970: 1_735_984_800)
        #expect(read.drafts == expected)
        #expect(read.unknownKeys == ["launchCount"])
    }
}
