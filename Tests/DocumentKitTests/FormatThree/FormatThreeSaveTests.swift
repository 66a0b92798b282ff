@testable import DocumentKit
import SampleProject
import Foundation
import Testing

/// Saves in format 3 (docs/format-3.md): a history in segments that a save adds to.
@Suite struct FormatThreeSaveTests {
    @Test func savesAddVersionsThatReadBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        var metadata = SaveMetadata(author: "t")
        metadata.formatVersion = 3
        let controller = DocumentController(newDocument: Project(name: "one"), at: url)
        _ = try controller.save(controller.document, metadata: metadata)
        for index in 1...40 {
            controller.document.name = "name \(index)"
            _ = try controller.save(controller.document, metadata: metadata)
        }
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(bundle.formatVersion == 3)
        #expect(bundle.headVersion.number == 41)
        #expect(try bundle.read(Project.self).name == "name 40")
        #expect(try bundle.read(Project.self, version: bundle.version(named: "1")).name == "one")
        #expect(try bundle.read(Project.self, version: bundle.version(named: "17")).name == "name 16")
        #expect(try bundle.manifest.versions.count == 41)
    }
}

