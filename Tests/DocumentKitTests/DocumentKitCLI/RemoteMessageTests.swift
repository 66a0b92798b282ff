import Foundation
import Testing

@testable import DocumentKit

/// What push, pull and clone say when the remote is not what the user meant, or the copies
/// differ: each names the user's own paths, and what to type next.
@Suite struct RemoteMessageTests {
    private func docctl(_ arguments: [String], in directory: TemporaryDirectory) throws -> ExternalTool.Result {
        try Run.docctl(arguments, in: directory.url)
    }

    @Test func aPushToAFileSaysTheRemoteIsAFile() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Fixtures.write(Data("png".utf8), to: "thumb.png", in: directory.url)
        expectFailure(
            try docctl(["push", "garden.dkproj", "thumb.png"], in: directory), status: 73,
            containing:
                """
                error: thumb.png: is a file, not a folder: a remote is a folder (made when missing) or \
                s3://BUCKET/PREFIX\n
                """
        )
        expectFailure(
            try docctl(["push", "garden.dkproj", "thumb.png/remote"], in: directory), status: 73,
            containing:
                """
                error: thumb.png/remote: is a file, not a folder (thumb.png is): a remote is a folder (made when \
                missing) or s3://BUCKET/PREFIX\n
                """
        )
        expectFailure(
            try docctl(["clone", "thumb.png", "-o", "copy.dkproj"], in: directory), status: 73,
            containing: "is a file, not a folder")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "thumb.png"])
    }

    @Test func anAddressThisBuildDoesNotSpeakIsRefusedWithWhatWasMeant() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        expectFailure(
            try docctl(["push", "garden.dkproj", "s3:/team-bucket/x"], in: directory), status: 64,
            containing:
                """
                error: s3:/team-bucket/x: not an S3 address (a remote is a folder or s3://BUCKET/PREFIX); did you \
                mean s3://team-bucket/x?\n
                """
        )
        expectFailure(
            try docctl(["push", "garden.dkproj", "S3://team-bucket/x"], in: directory), status: 64,
            containing: "did you mean s3://team-bucket/x?")
        expectFailure(
            try docctl(["push", "garden.dkproj", "https://s3.example.com/team-bucket"], in: directory), status: 64,
            containing:
                """
                error: https://s3.example.com/team-bucket: a web address, not a remote (a remote is a folder or \
                s3://BUCKET/PREFIX); for an S3-compatible service at that address, give s3://BUCKET/PREFIX with \
                --endpoint https://s3.example.com\n
                """
        )
        expectFailure(
            try docctl(["clone", "s3:/team-bucket/x", "-o", "copy.dkproj"], in: directory), status: 64,
            containing: "did you mean s3://team-bucket/x?")
        expectFailure(
            try docctl(["pull", "garden.dkproj", "s3:/team-bucket/x"], in: directory), status: 64,
            containing: "did you mean s3://team-bucket/x?")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"], "no folder made")
    }

    @Test func aSecondProjectIsAddedOnlyWhenAskedAndCloneNamesEach() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.succeeding(["new", "other.dkproj", "--name", "Shed", "--message", "Start the shed"], in: directory.url)
        try Run.succeeding(["push", "garden.dkproj", "remote"], in: directory.url)
        let garden = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).manifest
        let refused = try docctl(["push", "other.dkproj", "remote"], in: directory)
        expectFailure(
            refused, status: 64,
            containing:
                "error: remote: holds another project, not other.dkproj's: \(OCFLDeposit.objectID(of: garden)) \"")
        #expect(
            refused.standardError.contains("(head v1, ")
                && refused.standardError.hasSuffix(
                    "; push with --new-project to add this one beside it (a clone then needs --object)\n"),
            "\(refused.standardError)")
        try Run.succeeding(["push", "other.dkproj", "remote", "--new-project"], in: directory.url)
        let other = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("other.dkproj")).manifest
        let clone = try docctl(["clone", "remote", "-o", "copy.dkproj"], in: directory)
        expectFailure(clone, status: 64, containing: "error: remote: holds 2 projects: ")
        #expect(clone.standardError.hasSuffix(" (name one with --object ID)\n"), "\(clone.standardError)")
        #expect(
            clone.standardError.contains("\(OCFLDeposit.objectID(of: other)) \"Shed\" (head v1, "),
            "\(clone.standardError)")
        #expect(clone.standardError.contains("\(OCFLDeposit.objectID(of: garden)) \""), "\(clone.standardError)")
    }

    @Test func pullAndPushSayWhichCopyIsAheadAndWhatToTypeNext() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.succeeding(["push", "garden.dkproj", "remote"], in: directory.url)
        try Run.succeeding(["clone", "remote", "-o", "other.dkproj"], in: directory.url)
        try Run.succeeding(
            ["set", "other.dkproj", "name", "Renamed elsewhere", "--message", "Rename the garden", "--author", "Bea"],
            in: directory.url)
        try Run.succeeding(["push", "other.dkproj", "remote"], in: directory.url)

        // Behind the remote: push names the remote's newest version and the command to run.
        let behind = try docctl(["push", "garden.dkproj", "remote"], in: directory)
        expectFailure(
            behind, status: 75,
            containing:
                """
                error: garden.dkproj: remote has versions this bundle lacks, up to its v2 (\"Rename the garden\", \
                by Bea, 
                """
        )
        #expect(
            behind.standardError.hasSuffix(") (pull first: 'docctl pull garden.dkproj remote', then push again)\n"),
            "\(behind.standardError)")

        // Ahead of the remote: pull says by how much, and that push sends them.
        try Run.succeeding(["set", "other.dkproj", "name", "Renamed again"], in: directory.url)
        try Run.succeeding(["set", "other.dkproj", "name", "And again"], in: directory.url)
        let ahead = try Run.succeeding(["pull", "other.dkproj", "remote"], in: directory.url)
        let head = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("other.dkproj")).headVersion
        #expect(
            ahead.output
                == """
                other.dkproj is up to date with remote and ahead of it: 2 versions remote lacks (head version \
                \(head.number) (\(head.shortID))); docctl push other.dkproj remote sends them\n
                """
        )
        let json =
            try JSONSerialization.jsonObject(
                with: Run.succeeding(["pull", "other.dkproj", "remote", "--json"], in: directory.url).standardOutput)
            as? [String: Any]
        #expect(json?["result"] as? String == "up-to-date" && json?["ahead"] as? Int == 2)

        // A merge with the remote names it as the user wrote it, not the temporary copy.
        try Run.succeeding(["set", "garden.dkproj", "tasks[0].title", "Edited here"], in: directory.url)
        try Run.succeeding(["pull", "garden.dkproj", "remote"], in: directory.url)
        let merge = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).headVersion
        #expect(merge.parents.count == 2 && merge.message.hasPrefix("Merge remote at "), "\(merge.message)")
    }

    /// docctl built or installed without its S3 helper (the demo builds docctl alone) says
    /// what to run to have it, for where it is: a release build in its package, a debug
    /// build, an installed tool.
    @Test func anS3RemoteWithoutTheHelperSaysWhatToRunToHaveIt() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let package = directory.path("DocumentKit")
        try FileManager.default.createDirectory(atPath: "\(package)/scripts", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: "\(package)/scripts/build-docctl.sh", contents: Data("#!/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        let places = [
            (
                "\(package)/.build/x86_64-unknown-linux-gnu/release",
                "build it with 'scripts/build-docctl.sh --s3' in \(package)"
            ),
            ("\(package)/.build/debug", "build it with 'swift build --product docctl-s3' in \(package)"),
            (directory.path("usr/bin"), "install it beside docctl (DocumentKit's scripts/install.sh installs both)")
        ]
        for (folder, advice) in places {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Run.docctlURL.path, toPath: "\(folder)/docctl")
            for command in [
                ["push", "garden.dkproj", "s3://team/garden"], ["clone", "s3://team/garden", "-o", "copy.dkproj"]
            ] {
                let result = try ExternalTool(name: "docctl", path: "\(folder)/docctl").run(
                    command, environment: Run.environment, in: directory.url)
                expectFailure(
                    result, status: 69,
                    containing:
                        """
                        error: s3://team/garden: S3 remotes need docctl-s3, which is not beside docctl (in \
                        \(folder)): \(advice)\n
                        """
                )
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.dkproj")))
    }
}
