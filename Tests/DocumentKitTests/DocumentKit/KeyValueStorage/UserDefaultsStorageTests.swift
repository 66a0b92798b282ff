import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

extension KeyValueStorage {
    fileprivate var name: KeyValueContainer<String> { makeContainer() }
    fileprivate var count: KeyValueContainer<Int> { makeContainer(default: 0) }
    fileprivate var zoom: KeyValueContainer<Double> { makeContainer(default: 1) }
    fileprivate var enabled: KeyValueContainer<Bool> { makeContainer(default: false) }
    fileprivate var lastOpened: KeyValueContainer<Date> { makeContainer() }
    fileprivate var thumbnail: KeyValueContainer<Data> { makeContainer() }
    fileprivate var drafts: KeyValueContainer<[String]> { makeContainer(default: []) }
    fileprivate var limits: KeyValueContainer<[String: Int]> { makeContainer() }
    fileprivate var exportFormat: KeyValueContainer<ExportFormat> { makeContainer() }
    fileprivate var origin: KeyValueContainer<Point> { makeContainer() }
}

private struct Point: Codable, Equatable {
    var x: Int
    var y: Double
}

/// Typed containers over `UserDefaults` and `UserDefaults`' own API see the same values.
///
/// Each test uses a suite named by an absolute path in its temporary directory, which
/// swift-corelibs-foundation (and Apple's Foundation) keep in that path plus `.plist`:
/// the user's own defaults are never touched.
@Suite struct UserDefaultsStorageTests {
    /// Tests that write through `UserDefaults` itself synchronize before they end: a
    /// domain left with unsaved changes is written when the process exits, after the
    /// temporary directory is gone, and would bring the directory back.
    private func makeDefaults(_ directory: TemporaryDirectory) throws -> UserDefaults {
        try #require(UserDefaults(suiteName: directory.path("defaults")))
    }

    @Test func valuesSetThroughContainersAreReadByUserDefaults() throws {
        let directory = try TemporaryDirectory()
        let defaults = try makeDefaults(directory)
        let storage = UserDefaultsStorage(defaults: defaults)
        // Whole seconds: swift-corelibs-foundation writes XML property lists, which keep
        // no fractions, and reads the file back after each synchronize.
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        try storage.name.set("Ada")
        try storage.count.set(42)
        try storage.zoom.set(1.5)
        try storage.enabled.set(true)
        try storage.lastOpened.set(date)
        try storage.thumbnail.set(Data([1, 2, 3]))
        try storage.drafts.set(["first", "second"])
        try storage.limits.set(["pages": 10])
        try storage.exportFormat.set(.tarZstd)
        try storage.origin.set(Point(x: 3, y: 4.5))

        #expect(defaults.string(forKey: "name") == "Ada")
        #expect(defaults.integer(forKey: "count") == 42)
        #expect(defaults.double(forKey: "zoom") == 1.5)
        #expect(defaults.bool(forKey: "enabled"))
        #expect(defaults.object(forKey: "lastOpened") as? Date == date, "a native date")
        #expect(defaults.data(forKey: "thumbnail") == Data([1, 2, 3]))
        #expect(defaults.stringArray(forKey: "drafts") == ["first", "second"])
        #expect(defaults.dictionary(forKey: "limits")?["pages"] as? Int == 10)
        #expect(defaults.string(forKey: "exportFormat") == "tar.zst", "an enum as its raw value")
        let origin = try #require(defaults.dictionary(forKey: "origin"), "a Codable struct as a dictionary")
        #expect(origin["x"] as? Int == 3)
        #expect(origin["y"] as? Double == 4.5)
    }

    @Test func valuesSetThroughUserDefaultsAreReadByContainers() throws {
        let directory = try TemporaryDirectory()
        let defaults = try makeDefaults(directory)
        let storage = UserDefaultsStorage(defaults: defaults)
        let date = Date(timeIntervalSince1970: 1_000_000_000)
        defaults.set("Ada", forKey: "name")
        defaults.set(7, forKey: "count")
        defaults.set(2, forKey: "zoom")
        defaults.set(true, forKey: "enabled")
        defaults.set(date, forKey: "lastOpened")
        defaults.set(Data([9]), forKey: "thumbnail")
        defaults.set(["a", "b"], forKey: "drafts")
        defaults.set(["pages": 3], forKey: "limits")
        defaults.set("zip", forKey: "exportFormat")
        defaults.set(["x": 1, "y": 2.5], forKey: "origin")
        defaults.synchronize()

        #expect(try storage.name.get() == "Ada")
        #expect(try storage.count.get() == 7)
        #expect(try storage.zoom.get() == 2, "an integer reads as a Double")
        #expect(try storage.enabled.get() == true)
        #expect(try storage.lastOpened.get() == date)
        #expect(try storage.thumbnail.get() == Data([9]))
        #expect(try storage.drafts.get() == ["a", "b"])
        #expect(try storage.limits.get() == ["pages": 3])
        #expect(try storage.exportFormat.get() == .zip)
        #expect(try storage.origin.get() == Point(x: 1, y: 2.5))
        try storage.name.remove()
        #expect(defaults.object(forKey: "name") == nil)
    }

    @Test func valuesOfTheWrongTypeAreErrorsNamingKeyTypeAndValue() throws {
        let directory = try TemporaryDirectory()
        let defaults = try makeDefaults(directory)
        let storage = UserDefaultsStorage(defaults: defaults, keyPrefix: "app.")
        defaults.set("large", forKey: "app.zoom")
        defaults.set(true, forKey: "app.count")
        defaults.set(1, forKey: "app.enabled")
        defaults.set("rar", forKey: "app.exportFormat")
        defaults.set(["x": "left"], forKey: "app.origin")
        defaults.synchronize()
        func message(_ read: () throws -> Any?) -> String {
            do {
                _ = try read()
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(message { try storage.zoom.get() } == #"key 'app.zoom': expected a number, found "large" (a string)"#)
        #expect(message { try storage.count.get() } == "key 'app.count': expected an integer, found true (a boolean)")
        #expect(
            message { try storage.enabled.get() } == "key 'app.enabled': expected true or false, found 1 (a number)")
        #expect(
            message { try storage.exportFormat.get() }
                == #"key 'app.exportFormat': expected one of zip, tar, tar.gz, tar.zst, dir, json, bagit or html, found "rar" (a string)"#
        )
        #expect(
            message { try storage.origin.get() }.hasPrefix(
                "key 'app.origin': expected a value of type Point, found {…} (a dictionary) (x: "))
    }

    @Test func prefixesKeepStoragesApartInOneDomain() throws {
        let directory = try TemporaryDirectory()
        let defaults = try makeDefaults(directory)
        let editor = UserDefaultsStorage(defaults: defaults, keyPrefix: "editor.")
        let viewer = UserDefaultsStorage(defaults: defaults, keyPrefix: "viewer.")
        try editor.zoom.set(2)
        try viewer.zoom.set(3)
        #expect(defaults.double(forKey: "editor.zoom") == 2)
        #expect(defaults.double(forKey: "viewer.zoom") == 3)
        #expect(try editor.keys() == ["zoom"])
        #expect(editor.zoom.fullKey == "editor.zoom")
    }

    /// Writes reach the suite's file at once (on Linux nothing else writes them), in the
    /// property-list form another program reads: here Python's plistlib.
    @Test(.enabled(if: ExternalTool.python3.isAvailable, "needs python3"))
    func writesReachThePropertyListFile() throws {
        let directory = try TemporaryDirectory()
        let storage = UserDefaultsStorage(defaults: try makeDefaults(directory))
        try storage.name.set("Ada")
        try storage.count.set(42)
        try storage.drafts.set(["first"])
        let result = try ExternalTool.python(
            """
            import plistlib, sys
            with open(sys.argv[1], "rb") as f: p = plistlib.load(f)
            print(sorted(p.items()))
            """, [directory.path("defaults.plist")])
        #expect(result.output == "[('count', 42), ('drafts', ['first']), ('name', 'Ada')]\n", "\(result.standardError)")
    }
}
