import Foundation
import Testing
@testable import DocumentKit

/// Writers take the bundle's lock in turn: concurrent edits all land, none is lost.
@Suite struct ConcurrentWritersTests {
    @Test func fourProcessesEditingAtOnceAllLand() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        for index in 0..<4 { try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "writer \#(index)"}"#], in: directory.url) }
        let editsPerWriter = 6
        // Each writer renames its own task repeatedly, all at the same time, as a shell
        // loop of real docctl processes.
        let writers = try (0..<4).map { index -> Process in
            let process = Process()
            process.environment = Run.environment
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for i in $(seq 1 \(editsPerWriter)); do \"$0\" set p.dkproj 'tasks[\(index)].title' \"writer \(index) edit $i\" || exit 1; done",
                                 Run.docctlURL.path]
            process.currentDirectoryURL = directory.url
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(bundle.manifest.versions.count == 1 + 4 + 4 * editsPerWriter, "every edit is its own version")
        let project = try bundle.read(Project.self)
        #expect(project.tasks.map(\.title) == (0..<4).map { "writer \($0) edit \(editsPerWriter)" })
        #expect(try BundleValidator.validate(bundle.url, deep: true).valid)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }
}
