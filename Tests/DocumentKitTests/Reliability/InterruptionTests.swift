import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// Ctrl-C, SIGTERM or SIGHUP while a command writes: its temporaries are removed, one line
/// says nothing was written, and it exits 128 + the signal (issue 23; ``Interruption``).
/// Real processes, real signals.
@Suite struct InterruptionTests {
    static let signals: [(Int32, String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")]

    /// Whether `name` is a temporary of the output `output` (`.NAME.dk-XXXXXXXX.tmp`).
    private static func isTemporary(_ name: String, of output: String) -> Bool {
        name.hasPrefix(".\(output).dk-") && name.hasSuffix(".tmp")
    }

    /// Waits (up to 60 s) until a temporary of `output` is in `folder`.
    private static func waitForTemporary(of output: String, in folder: URL, while process: DocctlProcess) -> Bool {
        for _ in 0..<60_000 where process.isRunning {
            if Fixtures.listing(folder).contains(where: { isTemporary($0, of: output) }) { return true }
            usleep(1_000)
        }
        return false
    }

    private static func expectInterrupted(
        _ outcome: DocctlProcess.Outcome, by signal: Int32, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            !outcome.signaled && outcome.status == 128 + signal,
            "status \(outcome.status), signaled \(outcome.signaled): \(outcome.standardError)",
            sourceLocation: sourceLocation)
        #expect(outcome.standardError == "error: interrupted; nothing was written\n", sourceLocation: sourceLocation)
    }

    @Test(arguments: [0, 1, 2])
    func anInterruptedCloneFromAFolderRemoteLeavesNothing(_ index: Int) throws {
        let (signal, _) = Self.signals[index]
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "Big"], in: directory.url)
        try Fixtures.write(Fixtures.noise(24_000_000, seed: 5), to: "big.bin", in: directory.url)
        try Run.succeeding(["attach", "p.dkproj", "big.bin", "--as", "thumbnail"], in: directory.url)
        try Run.succeeding(["push", "p.dkproj", "remote"], in: directory.url)
        let before = Fixtures.listing(directory.url)
        let clone = try DocctlProcess(["clone", "remote", "-o", "c.dkproj"], in: directory.url)
        let caught = Self.waitForTemporary(of: "c.dkproj", in: directory.url, while: clone)
        #expect(caught, "the clone made a temporary before it ended")
        // Stopped while the signal is sent, so that it arrives mid-write.
        clone.send(SIGSTOP)
        clone.waitUntilStopped()
        clone.send(signal)
        clone.send(SIGCONT)
        let outcome = clone.wait()
        guard caught else { return }
        Self.expectInterrupted(outcome, by: signal)
        #expect(Fixtures.listing(directory.url) == before, "no temporary, no partial bundle")
        // And the remote keeps no lock, so the next clone just works.
        try Run.succeeding(["clone", "remote", "-o", "c.dkproj"], in: directory.url)
    }

    @Test func anInterruptedAttachFromAPipeLeavesTheBundleAndNoTemporary() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "Piped"], in: directory.url)
        let bundle = directory.url.appendingPathComponent("p.dkproj")
        let digest = try Fixtures.digest(of: bundle)
        let before = Fixtures.listing(directory.url)
        let pipe = Pipe()
        let attach = try DocctlProcess(
            ["attach", "p.dkproj", "-", "--name", "big.bin", "--as", "thumbnail"], in: directory.url,
            standardInput: pipe.fileHandleForReading)
        // 4 MB in, and the pipe left open: attach waits for the rest, its spool file half written.
        pipe.fileHandleForWriting.write(Fixtures.noise(4_000_000, seed: 7))
        let caught = Self.waitForTemporary(of: "p.dkproj", in: directory.url, while: attach)
        #expect(caught, "the attach spooled into a temporary")
        attach.send(SIGINT)
        let outcome = attach.wait()
        try? pipe.fileHandleForWriting.close()
        Self.expectInterrupted(outcome, by: SIGINT)
        #expect(Fixtures.listing(directory.url) == before)
        #expect(try Fixtures.digest(of: bundle) == digest)
    }

    /// A push told to stop after some of its files went to the remote says so, and that
    /// running it again finishes it; which it does, the remote whole before and after.
    @Test func anInterruptedPushSaysTheRemoteHasPartOfItAndTheNextPushFinishes() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let push = try Run.docctl(
            ["push", "garden.dkproj", "remote"], in: directory.url,
            environment: ["DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES": "3:INT"])
        #expect(push.status == 128 + SIGINT, "\(push.standardError)")
        #expect(
            push.standardError
                == """
                error: interrupted; remote has part of what was sent, each file whole: run the command again to \
                finish\n
                """
        )
        let again = try Run.succeeding(["push", "garden.dkproj", "remote"], in: directory.url)
        #expect(again.output.hasPrefix("pushed garden.dkproj to remote: "), "\(again.output)")
        try Run.succeeding(["clone", "remote", "-o", "copy.dkproj"], in: directory.url)
        let versions = { (name: String) in
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name)).manifest.versions.map(\.id)
        }
        #expect(try versions("copy.dkproj") == versions("garden.dkproj"))
    }

    /// The line for each thing a process may have written when it was stopped.
    @Test func theLineSaysWhatWasWrittenBeforeTheSignal() {
        #expect(InterruptionText.line(.nothing) == "interrupted; nothing was written")
        #expect(
            InterruptionText.line(.output("g.dkproj"))
                == "interrupted after g.dkproj was written in full; nothing is half-written")
        #expect(
            InterruptionText.line(.remote("s3://team/p"))
                == """
                interrupted; s3://team/p has part of what was sent, each file whole: run the command again to \
                finish
                """
        )
    }
}
