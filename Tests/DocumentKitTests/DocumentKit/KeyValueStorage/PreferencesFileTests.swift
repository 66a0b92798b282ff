import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

extension KeyValueStorage {
    fileprivate var zoom: KeyValueContainer<Double> { makeContainer(default: 1) }
    fileprivate var recentFiles: KeyValueContainer<[String]> { makeContainer(default: []) }
}

/// The preferences file: one sorted JSON object, replaced atomically under a lock, never
/// overwritten when it cannot be read.
@Suite struct PreferencesFileTests {
    private func preferences(in directory: TemporaryDirectory) -> PreferencesFile {
        PreferencesFile(url: directory.url.appendingPathComponent("config/docctl/preferences.json"))
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test func writesOneSortedObjectWithTheUmasksMode() throws {
        let directory = try TemporaryDirectory()
        let file = preferences(in: directory)
        let settings = UserSettings(storage: file)
        try settings.authorName.set("Ada Lovelace")
        try file.zoom.set(1.5)
        try file.recentFiles.set(["b.dkproj", "a.dkproj"])
        try settings.authorEmail.set("ada@example.org")
        #expect(
            try String(contentsOf: file.url, encoding: .utf8) == """
                {
                  "authorEmail" : "ada@example.org",
                  "authorName" : "Ada Lovelace",
                  "recentFiles" : [
                    "b.dkproj",
                    "a.dkproj"
                  ],
                  "zoom" : 1.5
                }

                """)
        #expect(mode(file.url.path) == AtomicReplacement.defaultMode(), "0666 less the umask, as for any new file")
        #expect(mode(directory.path("config/docctl")) == 0o700, "a new folder is private, as XDG asks")
        #expect(
            Fixtures.listing(file.url.deletingLastPathComponent()) == ["preferences.json"],
            "no lock or temporary file left")
        #expect(try file.keys() == ["authorEmail", "authorName", "recentFiles", "zoom"])
    }

    @Test func eachWriteReplacesTheFileAndKeepsItsPermissions() throws {
        let directory = try TemporaryDirectory()
        let file = preferences(in: directory)
        try file.zoom.set(2)
        chmod(file.url.path, 0o640)
        var before = stat()
        stat(file.url.path, &before)
        // What a killed write leaves behind is removed by the next one.
        let leftover = file.url.deletingLastPathComponent().appendingPathComponent(".preferences.json.dk-0badf00d.tmp")
        try Data("{".utf8).write(to: leftover)
        try file.zoom.set(3)
        var after = stat()
        stat(file.url.path, &after)
        #expect(after.st_ino != before.st_ino, "a new file renamed over the old one, not an edit in place")
        #expect(mode(file.url.path) == 0o640)
        #expect(try file.zoom.get() == 3)
        #expect(Fixtures.listing(file.url.deletingLastPathComponent()) == ["preferences.json"])
    }

    @Test func aMissingFileHoldsNothingAndRemovingNothingCreatesNoFile() throws {
        let directory = try TemporaryDirectory()
        let file = preferences(in: directory)
        #expect(try file.keys() == [])
        #expect(try file.zoom.get() == 1)
        try file.zoom.remove()
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        try file.zoom.set(2)
        try file.zoom.remove()
        #expect(try String(contentsOf: file.url, encoding: .utf8) == "{}\n")
    }

    @Test(arguments: [
        ("{\"zoom\": 2", "not valid JSON: "),
        ("[1, 2]", "expected a JSON object of preferences, found an array"),
        ("\"zoom\"", "expected a JSON object of preferences, found a string"),
        ("{\"zoom\": 1, \"zoom\": 2}", "duplicate member name 'zoom'"),
        ("", "not valid JSON: unexpected end of input")
    ])
    func aMalformedFileIsAnErrorAndNeverOverwritten(text: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let file = preferences(in: directory)
        try FileManager.default.createDirectory(
            at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file.url)
        func failure(_ body: () throws -> Void) -> DocumentKitError? {
            do {
                try body()
                return nil
            } catch { return error as? DocumentKitError }
        }
        for error in [
            failure { _ = try file.zoom.get() }, failure { _ = try file.keys() },
            failure { try file.zoom.set(3) }, failure { try file.zoom.remove() }
        ] {
            #expect(error?.code == .malformedInput, "\(String(describing: error))")
            #expect(error?.path == file.url.path)
            #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        }
        #expect(try Data(contentsOf: file.url) == Data(text.utf8), "untouched")
        #expect(Fixtures.listing(file.url.deletingLastPathComponent()) == ["preferences.json"])
    }

    @Test func aSymbolicallyLinkedFileIsWrittenThroughTheLink() throws {
        // As dotfile managers link ~/.config files into a repository.
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("dotfiles/preferences.json")
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"zoom\" : 2}\n".utf8).write(to: target)
        let file = preferences(in: directory)
        try FileManager.default.createDirectory(
            at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: file.url, withDestinationURL: target)
        try file.recentFiles.set(["a.dkproj"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.url.path) == target.path)
        #expect(try PreferencesFile(url: target).recentFiles.get() == ["a.dkproj"])
        #expect(try file.zoom.get() == 2)
    }

    /// Writers on separate open files of the lock exclude each other as separate processes
    /// do (`flock` locks belong to the open file), so eight threads writing 25 keys each at
    /// once must leave all 200 keys. (`StorageCommandTests` runs real processes too.)
    @Test func concurrentWritersLoseNoKey() throws {
        let directory = try TemporaryDirectory()
        let url = preferences(in: directory).url
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            let file = PreferencesFile(url: url, keyPrefix: "writer\(writer).")
            for index in 0..<25 {
                #expect(throws: Never.self) { try file.setValue(index, forKey: "key\(index)") }
            }
        }
        let all = try PreferencesFile(url: url).storedValues()
        #expect(all.count == 200)
        #expect(all["writer7.key24"] == .integer(24))
    }

    @Test func theLocationFollowsTheXDGSpecification() throws {
        #expect(
            try PreferencesFile.location(
                application: "docctl", environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/ada"]
            ).path
                == "/x/config/docctl/preferences.json")
        #expect(
            try PreferencesFile.location(
                application: "docctl", environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"]
            ).path
                == "/home/ada/.config/docctl/preferences.json", "a relative XDG_CONFIG_HOME is ignored")
        #expect(
            try PreferencesFile.location(application: "myapp", environment: ["HOME": "/home/ada"]).path
                == "/home/ada/.config/myapp/preferences.json")
        #expect(
            try PreferencesFile.location(application: "docctl", environment: [:]).path.hasSuffix(
                "/.config/docctl/preferences.json"),
            "the home folder from the user database")
    }
}
