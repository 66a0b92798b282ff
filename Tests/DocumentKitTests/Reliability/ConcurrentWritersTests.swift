import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Writers take the bundle's lock in turn and wait for it as long as it takes: concurrent
/// edits all land, each in its own version, none is lost and none fails. A long-lived
/// writer whose bundle changed under it gets a conflict instead of writing over the other's
/// work (for `docctl edit`, see `EditCommandTests.aBundleChangedDuringTheEditIsAConflictAndTheTextIsKept`).
///
/// The suite runs 4 writers x 8 edits; `scripts/concurrent-writers.sh` runs 4 x 100
/// (`DOCUMENTKIT_CONCURRENT_WRITERS`, `DOCUMENTKIT_CONCURRENT_EDITS`).
@Suite struct ConcurrentWritersTests {
    private static func setting(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? value
    }

    @Test func writersEditingAtOnceAllLandEachInItsOwnVersion() throws {
        let writerCount = Self.setting("DOCUMENTKIT_CONCURRENT_WRITERS", default: 4)
        let edits = Self.setting("DOCUMENTKIT_CONCURRENT_EDITS", default: 8)
        let directory = try TemporaryDirectory()
        let logs = try TemporaryDirectory("logs")
        let url = directory.url.appendingPathComponent("p.dkproj")
        try Run.docctl(["new", "p.dkproj", "--name", "start"], in: directory.url)
        for index in 0..<writerCount {
            try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "writer \#(index)"}"#], in: directory.url)
        }
        let taskIDs = try DocumentBundle(contentsOf: url).read(Project.self).tasks.map(\.id)
        let setupVersions = 1 + writerCount

        // Each writer renames its own task again and again, as a shell loop of real docctl
        // processes; a failed edit is counted and the loop goes on, so one failure hides no other.
        let clock = ContinuousClock()
        let started = clock.now
        let writers = try (0..<writerCount).map { index in
            try shell(
                """
                failures=0; i=1
                while [ $i -le \(edits) ]; do
                  "$0" set p.dkproj 'tasks[\(index)].title' "writer \(index) edit $i" -m "writer \(index) edit $i" >/dev/null 2>>"$1" || failures=$((failures + 1))
                  i=$((i + 1))
                done
                exit $failures
                """, logs.path("writer-\(index).txt"), in: directory.url)
        }
        // Meanwhile a reader reads the bundle until the writers are done: every read succeeds.
        let stop = logs.path("stop")
        let reader = try shell(
            """
            reads=0; failures=0
            while [ ! -e "$1" ]; do
              if "$0" get p.dkproj name >/dev/null 2>>"$2"; then reads=$((reads + 1)); else failures=$((failures + 1)); fi
            done
            echo "$reads $failures"
            """, stop, logs.path("reader.txt"), in: directory.url, capturing: true)
        for writer in writers { writer.process.waitUntilExit(deadline: "a writer's loop of docctl set") }
        let elapsed = clock.now - started
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        reader.process.waitUntilExit(deadline: "the reader's loop of docctl get")
        let readCounts = String(decoding: reader.output!.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }

        for (index, writer) in writers.enumerated() {
            #expect(
                writer.process.terminationStatus == 0,
                "writer \(index): \(writer.process.terminationStatus) edits failed")
            // A writer that waits over a second for another's lock says so, once (on a slow
            // machine, or under a sanitizer); anything else on stderr is an error.
            let errors = try String(contentsOfFile: logs.path("writer-\(index).txt"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("waiting for p.dkproj: ") }
            #expect(errors.isEmpty, "writer \(index): \(errors)")
        }
        let readErrors = try String(contentsOfFile: logs.path("reader.txt"), encoding: .utf8)
        #expect(readCounts.count == 2 && readCounts[1] == 0, "reads, failed reads: \(readCounts); \(readErrors)")

        let bundle = try DocumentBundle(contentsOf: url)
        let versions = Array(try bundle.manifest.versions.dropFirst(setupVersions))
        #expect(
            try bundle.manifest.versions.count == setupVersions + writerCount * edits, "every edit is its own version")
        let expected = Set((0..<writerCount).flatMap { index in (1...edits).map { "writer \(index) edit \($0)" } })
        #expect(Set(versions.map(\.message)) == expected && versions.count == expected.count, "each edit exactly once")
        for index in 0..<writerCount {
            let own = versions.filter { $0.message.hasPrefix("writer \(index) edit ") }
            #expect(
                own.map(\.message) == (1...edits).map { "writer \(index) edit \($0)" },
                "writer \(index)'s edits in the order made")
            let path = "tasks[id=\(taskIDs[index].uuidString)].title"
            #expect(
                own.allSatisfy { $0.changes?.paths.map(\.path) == [path] },
                "each version changes its writer's task alone")
        }
        let project = try bundle.read(Project.self)
        #expect(project.tasks.map(\.title) == (0..<writerCount).map { "writer \($0) edit \(edits)" })
        #expect(try BundleValidator.validate(url, deep: true).valid)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"], "no temporary file or journal left")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "concurrent writers: \(writerCount) x \(edits) edits in \(String(format: "%.1f", seconds)) s, "
                + """
                \(try bundle.manifest.versions.count) versions, \
                \(writers.filter { $0.process.terminationStatus != 0 }.count) writers with failures, 
                """
                + "\((readCounts.first ?? 0)) reads meanwhile, \(readCounts.last ?? -1) failed")
    }

    @Test func aWriterWaitsForTheLockAsLongAsItIsHeld() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try Run.docctl(["new", "p.dkproj", "--name", "start"], in: directory.url)
        // Another writer holds the lock: `set` waits for it, however long, and then saves.
        // It says so after a second of waiting; the lock is released only once it has.
        var lock: BundleLock? = try BundleLock.acquire(url)
        let waiting = try DocctlProcess(["set", "p.dkproj", "name", "after the wait"], in: directory.url)
        #expect(
            waiting.waitForStandardError(containing: "waiting for p.dkproj: "),
            "it says it waits: \(waiting.standardErrorSoFar)")
        #expect(waiting.isRunning, "still waiting for the lock")
        #expect(try DocumentBundle(contentsOf: url).read(Project.self).name == "start", "nothing saved while it waits")
        withExtendedLifetime(lock) {}
        lock = nil
        let outcome = waiting.wait()
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome.standardError)")
        #expect(try DocumentBundle(contentsOf: url).read(Project.self).name == "after the wait")

        // With DOCUMENTKIT_LOCK_TIMEOUT it gives up, saying why, and writes nothing.
        lock = try BundleLock.acquire(url)
        let before = try Data(contentsOf: url)
        let bounded = try Run.docctl(
            ["set", "p.dkproj", "name", "impatient"], in: directory.url,
            environment: ["DOCUMENTKIT_LOCK_TIMEOUT": "0.3"])
        withExtendedLifetime(lock) {}
        expectFailure(bounded, status: 75, containing: "p.dkproj: locked by another writer for more than 0.3 s")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aControllerWhoseBundleChangedUnderItGetsAConflictNamingBothVersions() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: url).save(message: "start", author: "test")
        let controller = try DocumentController<Project>(contentsOf: url)
        let opened = try #require(controller.version)
        controller.document.name = "Mine"
        // Other processes save meanwhile: three writers at once, three edits each.
        let others = try (0..<3).map { index in
            try shell(
                """
                for i in 1 2 3; do \"$0\" set p.dkproj 'tasks[\(index)].title' \"other \(index) $i\" -m \"other \
                \(index) $i\" >/dev/null || exit 1; done
                """,
                in: directory.url)
        }
        for other in others {
            other.process.waitUntilExit(deadline: "another writer's loop of docctl set")
            #expect(other.process.terminationStatus == 0)
        }
        let theirs = try Data(contentsOf: url)
        let head = try DocumentBundle(contentsOf: url).headVersion
        #expect(head.number == 10)

        #expect {
            try controller.save(message: "mine", author: "test")
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .conflict && error.path == url.relativePath
                && error.message.contains("opened at version \(opened.number) (\(opened.shortID))")
                && error.message.contains("now at version \(head.number) (\(head.shortID))")
        }
        #expect(try Data(contentsOf: url) == theirs, "nothing of ours was written over their versions")
        #expect(controller.document.name == "Mine", "the unsaved edit is kept in memory")
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])

        // Reverting reads their versions; the edit made again then saves on top of them.
        try controller.revert()
        controller.document.name = "Mine"
        let saved = try #require(try controller.save(message: "mine, again", author: "test"))
        #expect(saved.number == 11 && saved.parents == [head.id])
        #expect(
            try DocumentBundle(contentsOf: url).read(Project.self).tasks.prefix(3).map(\.title) == [
                "other 0 3", "other 1 3", "other 2 3"
            ])
    }

    /// A `/bin/sh` script run with docctl as `$0` and `arguments` after it, in `directory`.
    private func shell(_ script: String, _ arguments: String..., in directory: URL, capturing: Bool = false) throws -> (
        process: Process, output: Pipe?
    ) {
        let process = Process()
        process.environment = Run.environment
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, Run.docctlURL.path] + arguments
        process.currentDirectoryURL = directory
        let output = capturing ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        try process.run()
        return (process, output)
    }
}
