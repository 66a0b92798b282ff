import Foundation
import Testing

@testable import DocumentKit

/// A saved bundle keeps its mode and owner, in place or rewritten; a bundle reached
/// through a symbolic link is saved to its target and the link stays a link; what docctl
/// creates honours the umask; its temporary files and folders are private (0600, 0700)
/// whatever the umask.
@Suite struct PermissionTests {
    private static let saves: [WriteOperation] = [.setInPlace, .setRewrite, .prune, .attach]

    private func status(_ path: String) -> stat {
        var info = stat()
        lstat(path, &info)
        return info
    }

    @Test(arguments: saves, [mode_t(0o640), 0o604])
    func aSaveKeepsTheBundlesMode(_ operation: WriteOperation, _ mode: mode_t) throws {
        let scene = try WriteScene()
        let bundle = scene.directory.path(operation.named(in: "work"))
        #expect(chmod(bundle, mode) == 0)
        let before = status(bundle)
        let result = try scene.docctl(operation.arguments(in: "work"))
        #expect(result.status == 0, "\(result.standardError)")
        let after = status(bundle)
        #expect(after.st_mode & 0o7777 == mode, "mode \(String(after.st_mode & 0o7777, radix: 8))")
        #expect(
            (after.st_ino != before.st_ino) == (operation == .setRewrite || operation == .prune),
            "rewritten or appended to")
    }

    /// Issue 23: a bundle its owner may not write (`chmod 444`) in a writable folder was
    /// saved over by `set`, its mode kept. It is refused as its mode says, also for root
    /// (who passes every permission check), with one line and every byte kept.
    @Test(arguments: saves)
    func aReadOnlyBundleIsRefused(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        #expect(chmod(scene.directory.path(operation.named(in: "work")), 0o444) == 0)
        try scene.expectRefused(
            operation, status: 73,
            reason: "cannot write: Permission denied (it is read-only, mode 444); nothing was written")
    }

    @Test func aReadOnlyBundlesStateIsNotChangedEither() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "P"], in: directory.url)
        #expect(chmod(directory.path("p.dkproj"), 0o400) == 0)
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj"))
        expectFailure(
            try Run.docctl(
                ["state", "set", "p.dkproj", "task.last-opened", "6F9619FF-8B86-D011-B42D-00C04FC964FF"],
                in: directory.url), status: 73,
            containing:
                "error: p.dkproj: cannot write: Permission denied (it is read-only, mode 400); nothing was written")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj")) == digest)
    }

    /// Issue 23: `key new`, `archive` and `push` worded a permission error three ways (one
    /// with Foundation's "You don’t have permission.", one with no reason). As the user
    /// nobody (`setpriv`), each now says `PATH: OPERATION: Permission denied`.
    @Test(
        .enabled(
            if: Privileges.isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "running as another user needs root and setpriv"))
    func permissionErrorsAreWordedOnce() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "P"], in: directory.url)
        // Root's folder, which nobody may read but not write.
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("closed"), withIntermediateDirectories: false)
        #expect(
            chmod(directory.path("closed"), 0o755) == 0 && chmod(directory.path("p.dkproj"), 0o644) == 0
                && chmod(directory.path("."), 0o755) == 0)
        func asNobody(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalTool.Result {
            try ExternalTool(name: "setpriv", path: "/usr/bin/setpriv")
                .run(
                    ["--reuid=65534", "--regid=65534", "--clear-groups", Run.docctlURL.path] + arguments,
                    environment: Run.environment.merging(environment) { $1 }, in: directory.url)
        }
        let before = Fixtures.listing(directory.url.appendingPathComponent("closed"))
        let key = try asNobody(["key", "new"], environment: ["XDG_CONFIG_HOME": directory.path("closed/config")])
        expectFailure(
            key, status: 73,
            containing: "error: \(directory.path("closed/config")): cannot create the folder: Permission denied")
        let archive = try asNobody(["archive", "p.dkproj", "closed/root"])
        expectFailure(
            archive, status: 73, containing: "error: closed/root: cannot create the folder: Permission denied")
        let push = try asNobody(["push", "p.dkproj", "closed/remote"])
        expectFailure(push, status: 73, containing: ": Permission denied")
        #expect(push.standardError.hasPrefix("error: closed/remote"), "\(push.standardError)")
        for result in [key, archive, push] {
            #expect(!result.standardError.contains("could not be completed"), "\(result.standardError)")
        }
        #expect(Fixtures.listing(directory.url.appendingPathComponent("closed")) == before)
    }

    /// As root: a bundle of another user keeps its owner and group, and its set-group-ID
    /// bit (which a change of owner clears, so the owner must be set first).
    @Test(.enabled(if: Privileges.isRoot, "giving a file to another user needs root"), arguments: saves)
    func aSaveKeepsTheBundlesOwner(_ operation: WriteOperation) throws {
        let scene = try WriteScene()
        let bundle = scene.directory.path(operation.named(in: "work"))
        #expect(chown(bundle, 4242, 4343) == 0)
        #expect(chmod(bundle, 0o2770) == 0)
        let result = try scene.docctl(operation.arguments(in: "work"))
        #expect(result.status == 0, "\(result.standardError)")
        let after = status(bundle)
        #expect(after.st_uid == 4242 && after.st_gid == 4343, "owner \(after.st_uid):\(after.st_gid)")
        #expect(after.st_mode & 0o7777 == 0o2770, "mode \(String(after.st_mode & 0o7777, radix: 8))")
    }

    enum LinkKind: String, CaseIterable, CustomTestStringConvertible {
        /// `link.dkproj -> blob.dkproj`, in the same folder.
        case relative
        /// `link.dkproj -> /…/work/blob.dkproj`.
        case absolute
        /// `link.dkproj -> middle.dkproj -> blob.dkproj`.
        case chain
        /// `links/link.dkproj -> ../work/blob.dkproj`, from another folder.
        case otherFolder

        var testDescription: String { rawValue }
    }

    @Test(arguments: saves, LinkKind.allCases)
    func aSaveThroughASymbolicLinkWritesTheTargetAndKeepsTheLink(_ operation: WriteOperation, _ kind: LinkKind) throws {
        let scene = try WriteScene()
        let name = operation == .setRewrite ? "fresh.dkproj" : "blob.dkproj"
        let target = scene.work.appendingPathComponent(name)
        var linkFolder = scene.work
        let destination: String
        switch kind {
        case .relative: destination = name
        case .absolute: destination = target.path
        case .chain:
            try FileManager.default.createSymbolicLink(
                atPath: scene.work.appendingPathComponent("middle.dkproj").path, withDestinationPath: name)
            destination = "middle.dkproj"
        case .otherFolder:
            linkFolder = scene.directory.url.appendingPathComponent("links")
            try FileManager.default.createDirectory(at: linkFolder, withIntermediateDirectories: false)
            destination = "../work/\(name)"
        }
        let link = linkFolder.appendingPathComponent("link.dkproj")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: destination)
        let linkFolderListing = Fixtures.listing(linkFolder)
        let versions = try DocumentBundle(contentsOf: target).manifest.versions.count

        let linkPath = String(link.path.dropFirst(scene.directory.url.path.count + 1))
        var arguments = operation.arguments(in: "work")
        arguments[1] = linkPath
        let result = try scene.docctl(arguments)
        #expect(result.status == 0, "\(result.standardError)")

        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == destination,
            "the link is still a link to the same place")
        #expect(status(target.path).st_mode & S_IFMT == S_IFREG)
        let after = try DocumentBundle(contentsOf: target).manifest.versions.count
        #expect(after == (operation == .prune ? 1 : versions + 1), "the target was saved")
        #expect(Fixtures.listing(linkFolder) == linkFolderListing, "nothing made beside the link")
        #expect(
            Fixtures.listing(scene.work).allSatisfy { !$0.hasPrefix(".") }, "no temporary file left beside the target")
    }

    /// Files and folders docctl creates get the umask's mode, as any program's would:
    /// bundles (new, imported), exports (archive, JSON, folder and what is in it), extracts.
    /// A bundle it rewrites keeps its own mode whatever the umask.
    @Test(arguments: [(mode_t(0o027), mode_t(0o640), mode_t(0o750)), (0o077, 0o600, 0o700), (0o002, 0o664, 0o775)])
    func createdFilesHonourTheUmask(_ umask: mode_t, _ fileMode: mode_t, _ folderMode: mode_t) throws {
        let scene = try WriteScene()
        let shell = "umask \(String(umask, radix: 8))"
        let rewrittenMode = status(scene.work.appendingPathComponent("fresh.dkproj").path).st_mode & 0o7777
        for arguments in [
            ["new", "work/new.dkproj"], ["import", "export.zip", "-o", "work/imported.dkproj"],
            ["export", "work/blob.dkproj", "--format", "tar.zst", "-o", "work/out.tar.zst"],
            ["export", "work/blob.dkproj", "--format", "json", "-o", "work/out.json"],
            ["export", "work/blob.dkproj", "--format", "dir", "-o", "work/outdir"],
            ["extract", "work/blob.dkproj", "thumbnail", "-o", "work/cover.bin"],
            ["archive", "work/blob.dkproj", "work/ocfl"],
            ["set", "work/fresh.dkproj", "name", "rewritten"]
        ] {
            let result = try scene.docctl(arguments, shell: shell)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        func mode(_ name: String) -> mode_t { status(scene.work.appendingPathComponent(name).path).st_mode & 0o7777 }
        for name in [
            "new.dkproj", "imported.dkproj", "out.tar.zst", "out.json", "cover.bin", "outdir/document.json",
            "ocfl/0=ocfl_1.1"
        ] {
            #expect(mode(name) == fileMode, "\(name): \(String(mode(name), radix: 8))")
        }
        let blobs = try FileManager.default.contentsOfDirectory(
            atPath: scene.work.appendingPathComponent("outdir/blobs").path)
        #expect(blobs.count == 1 && mode("outdir/blobs/\(blobs[0])") == fileMode)
        // An archive's root appears by one rename of a private folder, then gets a new folder's mode.
        for name in ["outdir", "outdir/blobs", "ocfl", "ocfl/extensions"] {
            #expect(mode(name) == folderMode, "\(name): \(String(mode(name), radix: 8))")
        }
        #expect(mode("fresh.dkproj") == rewrittenMode, "a rewritten bundle keeps its mode")
    }

    /// Caught while docctl writes, under umask 000: every temporary file and folder
    /// (an append's journal, a rewrite's new bundle, an export's file or folder, an
    /// import's staging folder) is private to its owner.
    @Test(arguments: [
        ["attach", "work/blob.dkproj", "more.bin", "--as", "thumbnail"],
        ["prune", "work/blob.dkproj", "--keep", "1"],
        ["export", "work/blob.dkproj", "--format", "zip", "-o", "work/out.zip"],
        ["export", "work/blob.dkproj", "--format", "dir", "-o", "work/outdir"],
        ["import", "big-export.zip", "-o", "work/imported.dkproj"]
    ])
    func temporaryFilesArePrivateWhateverTheUmask(_ arguments: [String]) throws {
        // A fast machine may finish before the write is seen: then try again, afresh.
        for _ in 1...3 {
            let scene = try WriteScene()
            // Large enough (8 MB) that each write lasts long enough to be seen.
            try Fixtures.write(Fixtures.noise(8_000_000, seed: 9), to: "more.bin", in: scene.directory.url)
            if arguments[0] != "attach" {
                try #require(
                    try scene.docctl(["attach", "work/blob.dkproj", "more.bin", "--as", "thumbnail"]).status == 0)
            }
            if arguments[0] == "import" {
                try #require(
                    try scene.docctl(["export", "work/blob.dkproj", "--format", "zip", "-o", "big-export.zip"]).status
                        == 0)
            }
            var seen: [String: mode_t] = [:]
            let (outcome, caught) = try DocctlProcess.stopping(
                arguments, in: scene.directory.url, shell: "umask 000",
                whenNameIn: scene.work, matches: { $0.hasPrefix(".") }
            ) { name in
                seen[name] = status(scene.work.appendingPathComponent(name).path).st_mode
            }
            guard caught else { continue }
            #expect(outcome.status == 0, "\(outcome.standardError)")
            for (name, mode) in seen {
                let expected: mode_t = (mode & S_IFMT) == S_IFDIR ? 0o700 : 0o600
                #expect(mode & 0o7777 == expected, "\(name): \(String(mode & 0o7777, radix: 8))")
            }
            #expect(Fixtures.listing(scene.work).allSatisfy { !$0.hasPrefix(".") }, "and gone once it is done")
            return
        }
        Issue.record("the write was never seen while it ran")
    }

    /// The functions that make temporary files, called directly: private modes, our names.
    @Test func temporaryFilesAreCreatedPrivate() throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("p.dkproj")
        do {
            let replacement = try AtomicReplacement(destination: destination)
            let temporary = Fixtures.listing(directory.url)
            #expect(temporary.count == 1 && temporary[0].hasPrefix(".p.dkproj.dk-") && temporary[0].hasSuffix(".tmp"))
            #expect(status(replacement.file.path).st_mode & 0o7777 == 0o600)
        }
        do {
            let staging = try StagingFolder(beside: destination)
            #expect(status(staging.url.path).st_mode & 0o7777 == 0o700)
        }

        try Fixtures.write(Data("bundle".utf8), to: "q.dkproj", in: directory.url)
        let fd = open(directory.path("q.dkproj"), O_RDWR)
        defer { close(fd) }
        let journal = try AppendJournal.begin(bundlePath: directory.path("q.dkproj"), fd: fd, length: 6)
        #expect(status(journal.path).st_mode & 0o7777 == 0o600)
        try journal.finish()
        #expect(Fixtures.listing(directory.url) == ["q.dkproj"], "each removed when released")
    }

    /// A temporary that its writer still holds is never removed by another writer's
    /// clean-up; one whose writer is gone is.
    @Test func aCleanUpRemovesOnlyTemporariesNoWriterHolds() throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("out.zip")
        let held = try AtomicReplacement(destination: destination)
        try Fixtures.write(Data("left by a killed export".utf8), to: ".out.zip.dk-0badf00d.tmp", in: directory.url)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(".out.zip.dk-0000abcd.tmp/blobs"),
            withIntermediateDirectories: true)
        try Fixtures.write(Data("mine".utf8), to: ".other.zip.dk-12345678.tmp", in: directory.url)
        AtomicReplacement.removeLeftovers(of: destination)
        #expect(
            Fixtures.listing(directory.url) == [
                ".other.zip.dk-12345678.tmp", URL(fileURLWithPath: held.file.path).lastPathComponent
            ])
        withExtendedLifetime(held) {}

        // A new bundle killed between `link` and `unlink` leaves a second name of itself,
        // which its own writer lock would keep: the name goes, the bundle stays.
        let bundle = try Fixtures.write(Data("a new bundle".utf8), to: "n.dkproj", in: directory.url)
        #expect(link(bundle.path, directory.path(".n.dkproj.dk-5eed5eed.tmp")) == 0)
        let lock = try BundleLock.acquire(bundle)
        AtomicReplacement.removeLeftovers(of: bundle)
        withExtendedLifetime(lock) {}
        #expect(!FileManager.default.fileExists(atPath: directory.path(".n.dkproj.dk-5eed5eed.tmp")))
        #expect(try Data(contentsOf: bundle) == Data("a new bundle".utf8))
    }
}
