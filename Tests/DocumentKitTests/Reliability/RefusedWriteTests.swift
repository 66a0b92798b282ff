import Foundation
import Testing

@testable import DocumentKit

/// A write the system refuses (a full file system, a file-size limit, a read-only or
/// immutable folder, a folder that does not exist or disappears) fails with one line
/// naming the file and its sysexits status (74 for I/O, 73 for an output that cannot be
/// created, 66 for a bundle that is not there), leaves every file byte-identical and
/// leaves no temporary file: for saves in place and rewrites, attaches, exports to a file
/// and to a folder, imports and new bundles.
@Suite struct RefusedWriteTests {
    /// Each case takes the path it is named for: appends keep the file and grow it,
    /// rewrites replace it.
    @Test(arguments: [WriteOperation.setInPlace, .setRewrite, .prune, .attach])
    func eachCaseTakesThePathItIsNamedFor(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        let bundle = URL(fileURLWithPath: scene.directory.path(operation.named(in: "work")))
        var before = stat()
        var after = stat()
        stat(bundle.path, &before)
        let result = try scene.docctl(operation.arguments(in: "work"))
        #expect(result.status == 0, "\(result.standardError)")
        stat(bundle.path, &after)
        let inPlace = operation == .setInPlace || operation == .attach
        #expect((before.st_ino == after.st_ino) == inPlace, "inode \(before.st_ino) → \(after.st_ino)")
        if inPlace { #expect(after.st_size > before.st_size) }
    }

    // Under ThreadSanitizer a process past RLIMIT_FSIZE takes a SIGBUS inside the
    // sanitizer's own shadow-memory access (MemoryAccessRange, from a memcpy in the Swift
    // runtime), not in docctl: the full tmpfs below tests the same refusal under it.
    @Test(
        .disabled(if: Sanitizer.thread, "ThreadSanitizer's runtime faults under a file-size limit"),
        arguments: WriteOperation.allCases)
    func aFileSizeLimitFailsCleanly(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        // docctl ignores SIGXFSZ, so passing the limit is an error (EFBIG) it reports and undoes.
        try scene.expectRefused(
            operation, shell: "ulimit -f \(try operation.fileSizeLimit(in: scene))", status: 74,
            reason: "File too large")
    }

    @Test(
        .enabled(if: Privileges.canMount, "needs root and permission to mount a tmpfs"),
        arguments: WriteOperation.allCases)
    func aFullFileSystemFailsCleanly(_ operation: WriteOperation) throws {
        let scene = try WriteScene(mountBytes: 8 << 20)
        // Room for a journal (one page), never for a whole save; none at all for a new
        // bundle or a rewritten small one, which would fit in a page (format 3 keeps a
        // small bundle under 4 KB) and need no journal.
        try #require(scene.mount).fill(leaving: [.new, .setRewrite].contains(operation) ? 0 : 4096)
        try scene.expectRefused(operation, status: 74, reason: "No space left on device")
    }

    @Test(
        .enabled(if: Privileges.canMount, "needs root and permission to mount a tmpfs"),
        arguments: WriteOperation.allCases)
    func aReadOnlyFileSystemFailsCleanly(_ operation: WriteOperation) throws {
        let scene = try WriteScene(mountBytes: 16 << 20)
        try #require(scene.mount).makeReadOnly()
        try scene.expectRefused(operation, status: 73, reason: "Read-only file system")
    }

    /// A folder in which nothing can be created: immutable (`chattr +i`) as root, whom
    /// permissions do not stop; mode 0555 for anyone else. The bundles in it stay writable,
    /// so an append gets as far as its journal.
    @Test(
        .enabled(if: !Privileges.isRoot || Privileges.canMakeImmutable, "needs chattr +i as root"),
        arguments: WriteOperation.allCases)
    func aFolderThatRefusesNewFilesFailsCleanly(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        if Privileges.isRoot {
            let immutable = try ImmutableFolder(scene.work, in: scene.directory)
            try withExtendedLifetime(immutable) {
                try scene.expectRefused(operation, status: 73, reason: "Operation not permitted")
            }
        } else {
            #expect(chmod(scene.work.path, 0o555) == 0)
            defer { chmod(scene.work.path, 0o755) }
            try scene.expectRefused(operation, status: 73, reason: "Permission denied")
        }
    }

    /// A folder that is not there: an output cannot be created in it (73), a bundle in it
    /// is a missing input (66).
    @Test(arguments: WriteOperation.allCases)
    func aMissingFolderFailsCleanly(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        if operation.createsOutput {
            try scene.expectRefused(
                operation, outputsIn: "gone", status: 73, reason: "cannot create it: its folder does not exist")
        } else {
            try scene.expectRefused(operation, in: "gone", status: 66, reason: "No such file or directory")
        }
    }

    /// The bundle's folder renamed while a save is writing: the save follows the folder
    /// (it works through the folder's descriptor) and completes there, leaving nothing
    /// behind in either place.
    @Test(arguments: [WriteOperation.prune, .attach])
    func aFolderRenamedDuringASaveTakesTheSaveWithIt(_ operation: WriteOperation) throws {
        // A fast machine may finish before the write is seen: then try again, afresh.
        for _ in 1...3 {
            let scene = try WriteScene()
            try Fixtures.write(Fixtures.noise(8_000_000, seed: 9), to: "more.bin", in: scene.directory.url)
            let moved = scene.directory.url.appendingPathComponent("moved")
            let (outcome, caught) = try DocctlProcess.stopping(
                operation.arguments(in: "work"), in: scene.directory.url,
                whenNameIn: scene.work, matches: { $0.hasPrefix(".blob.dkproj.dk-") }
            ) { _ in
                #expect(rename(scene.work.path, moved.path) == 0)
            }
            guard caught else { continue }
            #expect(outcome.status == 0 && !outcome.signaled, "\(outcome.standardError)")
            #expect(Fixtures.listing(moved) == ["blob.dkproj", "fresh.dkproj"], "no temporary file or journal left")
            #expect(!FileManager.default.fileExists(atPath: scene.work.path), "nothing made at the old path")
            let validate = try Run.docctl(["validate", "--deep", "moved/blob.dkproj"], in: scene.directory.url)
            #expect(validate.status == 0, "\(validate.output)")
            let versions = try DocumentBundle(contentsOf: moved.appendingPathComponent("blob.dkproj")).manifest.versions
                .count
            #expect(versions == (operation == .prune ? 1 : 4))
            return
        }
        Issue.record("the save was never caught while writing")
    }

    /// The folder removed while a save or an export is writing: an error naming the file,
    /// 73, and nothing recreated.
    @Test(arguments: [WriteOperation.prune, .attach, .exportFolder])
    func aFolderRemovedDuringAWriteIsAnError(_ operation: WriteOperation) throws {
        for _ in 1...3 {
            let scene = try WriteScene()
            try Fixtures.write(Fixtures.noise(8_000_000, seed: 9), to: "more.bin", in: scene.directory.url)
            if operation == .exportFolder {
                // A large blob, so the export is caught while it writes.
                _ = try Run.docctl(
                    ["attach", "work/blob.dkproj", "more.bin", "--as", "thumbnail"], in: scene.directory.url)
            }
            let prefix = operation == .exportFolder ? ".outdir.dk-" : ".blob.dkproj.dk-"
            let (outcome, caught) = try DocctlProcess.stopping(
                operation.arguments(in: "work"), in: scene.directory.url,
                whenNameIn: scene.work, matches: { $0.hasPrefix(prefix) }
            ) { _ in
                try FileManager.default.removeItem(at: scene.work)
            }
            guard caught else { continue }
            #expect(outcome.status == 73 && !outcome.signaled, "\(outcome.standardError)")
            let lines = outcome.standardError.split(separator: "\n")
            #expect(
                lines.count == 1 && lines[0].hasPrefix("error: \(operation.named(in: "work")): "),
                "\(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: scene.work.path), "nothing recreated")
            #expect(Fixtures.listing(scene.directory.url) == ["export.zip", "more.bin"])
            return
        }
        Issue.record("the write was never caught while writing")
    }
}
