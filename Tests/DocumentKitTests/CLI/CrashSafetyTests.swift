import Foundation
import Testing
@testable import DocumentKit

/// A save or prune killed at any moment leaves the bundle valid, at the old or the new state.
@Suite struct CrashSafetyTests {
    @Test func killingASaveLeavesTheOldOrTheNewVersion() throws {
        let directory = try TemporaryDirectory()
        // A 48 MB blob makes each save long enough to be killed in the middle.
        let blob = directory.url.appendingPathComponent("big.bin")
        try ExternalTool(name: "sh").run(["-c", "head -c 48000000 /dev/urandom > \"$1\"", "sh", blob.path])
        try Run.docctl(["new", "p.dkproj", "--name", "v0"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "big.bin", "--as", "thumbnail"], in: directory.url)
        // Two more blobs to attach in turn: an attach appends 32 MB in place.
        for (index, name) in ["a.bin", "b.bin"].enumerated() {
            try Fixtures.write(Fixtures.noise(32_000_000, seed: UInt64(index + 1)), to: name, in: directory.url)
        }
        var names = ["v0"]
        var killedMidway = 0
        for attempt in 1...12 {
            let process = Process()
            process.environment = Run.environment
            process.executableURL = Run.docctlURL
            // Edits (appended in place), attaches (a large append) and prunes (a rewrite).
            process.arguments = switch attempt % 3 {
            case 1: ["set", "p.dkproj", "name", "v\(attempt)"]
            case 2: ["attach", "p.dkproj", attempt % 2 == 0 ? "a.bin" : "b.bin", "--as", "thumbnail"]
            default: ["prune", "p.dkproj", "--keep", "2"]
            }
            process.currentDirectoryURL = directory.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t.random(in: 5_000...120_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedMidway += 1
            }
            process.waitUntilExit()
            let validate = try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url)
            #expect(validate.status == 0, "attempt \(attempt): \(validate.output)")
            let name = try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output.trimmingCharacters(in: .newlines)
            #expect(name == names.last! || (attempt % 3 == 1 && name == "v\(attempt)"), "attempt \(attempt): \(name)")
            if name != names.last! { names.append(name) }
        }
        // A later save removes what killed saves left behind.
        try Run.docctl(["set", "p.dkproj", "name", "final"], in: directory.url)
        #expect(Fixtures.listing(directory.url) == ["a.bin", "b.bin", "big.bin", "p.dkproj"])
        #expect(killedMidway > 0, "at least one save was killed while running")
    }
}
