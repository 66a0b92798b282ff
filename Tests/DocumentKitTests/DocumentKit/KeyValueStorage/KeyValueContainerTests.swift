import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// Settings declared the way the documentation shows: computed properties whose names are
/// their keys.
extension KeyValueStorage {
    fileprivate var zoom: KeyValueContainer<Double> { makeContainer(default: 1) }
    fileprivate var recentFiles: KeyValueContainer<[String]> { makeContainer(default: []) }
    fileprivate var windowFrame: KeyValueContainer<WindowFrame> { makeContainer() }
    fileprivate var lastOpened: KeyValueContainer<Date> { makeContainer() }
    fileprivate var exportFormat: KeyValueContainer<ExportFormat> { makeContainer(default: .zip) }
    /// Renamed from `showsRuler`: the old key is kept so stored values still apply.
    fileprivate var rulerVisible: KeyValueContainer<Bool> { makeContainer(key: "showsRuler", default: false) }
}

private struct WindowFrame: Codable, Equatable {
    var x: Double
    var y: Double
}

/// Containers fix a key and a type once; storages keep values apart by prefix and refuse
/// values of the wrong type.
@Suite struct KeyValueContainerTests {
    @Test func theDeclaringPropertyNamesTheKey() throws {
        let storage = InMemoryStorage()
        #expect(storage.zoom.key == "zoom")
        #expect(storage.recentFiles.key == "recentFiles")
        #expect(storage.rulerVisible.key == "showsRuler")
        #expect(UserSettings(storage: storage).authorName.key == "authorName")
        try storage.zoom.set(1.5)
        try storage.rulerVisible.set(true)
        #expect(storage.storedValues == ["zoom": .number(1.5), "showsRuler": .bool(true)])
        #expect(try storage.keys() == ["showsRuler", "zoom"])
    }

    @Test func getReturnsTheStoredValueElseTheDefault() throws {
        let storage = InMemoryStorage()
        #expect(try storage.zoom.get() == 1)
        #expect(try storage.zoom.storedValue() == nil)
        #expect(try storage.windowFrame.get() == nil, "no default")
        try storage.zoom.set(2)
        #expect(try storage.zoom.get() == 2)
        try storage.zoom.remove()
        #expect(try storage.zoom.get() == 1)
        #expect(try storage.keys() == [])
    }

    @Test func codableValuesRoundTripAsJSON() throws {
        let storage = InMemoryStorage()
        try storage.windowFrame.set(WindowFrame(x: 10, y: 20.5))
        try storage.recentFiles.set(["a.dkproj", "b.dkproj"])
        try storage.lastOpened.set(Date(timeIntervalSince1970: 1_767_225_600))
        try storage.exportFormat.set(.tarZstd)
        #expect(try storage.windowFrame.get() == WindowFrame(x: 10, y: 20.5))
        #expect(try storage.recentFiles.get() == ["a.dkproj", "b.dkproj"])
        #expect(try storage.lastOpened.get() == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(try storage.exportFormat.get() == .tarZstd)
        #expect(storage.storedValues["lastOpened"] == .string("2026-01-01T00:00:00Z"))
        #expect(storage.storedValues["exportFormat"] == .string("tar.zst"))
        #expect(storage.storedValues["windowFrame"] == .object(["x": .integer(10), "y": .number(20.5)]))
    }

    @Test(arguments: [
        (JSONValue.string("large"), "key 'zoom': expected a number, found \"large\" (a string)"),
        (.bool(true), "key 'zoom': expected a number, found true (a boolean)"),
        (.array([.integer(1)]), "key 'zoom': expected a number, found […] (an array)")
    ])
    func aStoredValueOfTheWrongTypeIsAnErrorNotTheDefault(stored: JSONValue, message: String) throws {
        let storage = InMemoryStorage(values: ["zoom": stored])
        #expect {
            try storage.zoom.get()
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .malformedInput && error.description == message
        }
    }

    @Test func wrongTypesAreDescribedInTheSettingsTerms() throws {
        let storage = InMemoryStorage(values: [
            "exportFormat": .string("rar"), "windowFrame": .object(["x": .integer(1), "y": .string("top")]),
            "recentFiles": .string("a.dkproj"), "lastOpened": .string("yesterday"), "showsRuler": .integer(1)
        ])
        func message(_ read: () throws -> Any?) -> String {
            do {
                _ = try read()
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(
            message { try storage.exportFormat.get() }
                == #"key 'exportFormat': expected one of zip, tar, tar.gz, tar.zst, dir, json, bagit or html, found "rar" (a string)"#
        )
        #expect(
            message { try storage.windowFrame.get() }
                == """
                key 'windowFrame': expected a value of type WindowFrame, found {…} (an object) (y: expected a \
                number, found a string)
                """
        )
        #expect(
            message { try storage.recentFiles.get() }
                == #"key 'recentFiles': expected an array, found "a.dkproj" (a string)"#)
        #expect(
            message { try storage.lastOpened.get() }.hasPrefix(
                #"key 'lastOpened': expected a date, found "yesterday" (a string)"#))
        #expect(
            message { try storage.rulerVisible.get() } == "key 'showsRuler': expected true or false, found 1 (a number)"
        )
        // Replacing a wrong value is how it is mended.
        try storage.exportFormat.set(.tar)
        #expect(try storage.exportFormat.get() == .tar)
    }

    @Test func prefixesKeepStoragesApart() throws {
        let editor = InMemoryStorage(keyPrefix: "editor.")
        let viewer = editor.prefixed("viewer.")
        let everything = editor.prefixed("")
        try editor.zoom.set(2)
        try viewer.zoom.set(3)
        #expect(try editor.zoom.get() == 2)
        #expect(try viewer.zoom.get() == 3)
        #expect(editor.zoom.fullKey == "editor.zoom")
        #expect(try editor.keys() == ["zoom"])
        #expect(try everything.keys() == ["editor.zoom", "viewer.zoom"])
        try viewer.zoom.remove()
        #expect(try viewer.zoom.get() == 1)
        #expect(try editor.zoom.get() == 2)
    }

    /// The point of taking keys from property names: in one module, a second setting with
    /// a key already used does not compile, even in another extension. Checked by
    /// type-checking such declarations against the built module, beside ones that do compile.
    @Test(.enabled(if: DuplicateKeyCheck.isAvailable, "needs swiftc and the built DocumentKit module"))
    func aDuplicateKeyIsACompileError() throws {
        let directory = try TemporaryDirectory()
        let unique = try DuplicateKeyCheck.typecheck(
            """
            import DocumentKit
            extension BundleState {
                var zoom: KeyValueContainer<Double> { storage.makeContainer(default: 1) }
            }
            """, in: directory)
        #expect(unique.status == 0, "\(unique.standardError)")
        let duplicate = try DuplicateKeyCheck.typecheck(
            """
            import DocumentKit
            extension BundleState {
                var zoom: KeyValueContainer<Double> { storage.makeContainer(default: 1) }
            }
            extension BundleState {
                var zoom: KeyValueContainer<Int> { storage.makeContainer(default: 100) }
            }
            """, in: directory)
        #expect(duplicate.status != 0)
        #expect(duplicate.standardError.contains("invalid redeclaration of 'zoom'"), "\(duplicate.standardError)")
    }
}

/// Type-checks a Swift file against the DocumentKit module the tests were built with.
private enum DuplicateKeyCheck {
    static let swiftc = ExternalTool(name: "swiftc")
    static let modules = Run.docctlURL.deletingLastPathComponent().appendingPathComponent("Modules")
    static let moduleMap = Fixtures.repository.appendingPathComponent("Sources/CArchive/module.modulemap")

    static var isAvailable: Bool {
        swiftc.isAvailable
            && FileManager.default.fileExists(atPath: modules.appendingPathComponent("DocumentKit.swiftmodule").path)
    }

    static func typecheck(_ source: String, in directory: TemporaryDirectory) throws -> ExternalTool.Result {
        let file = try Fixtures.write(
            Data(source.utf8), to: "Settings\(UUID().uuidString.prefix(8)).swift", in: directory.url)
        return try swiftc.run([
            "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(moduleMap.path)", file.path
        ])
    }
}
