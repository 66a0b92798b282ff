import DocumentKitS3
import Foundation
import Testing

@testable import DocumentKit

/// `--jobs N` and `remote.jobs` (issue 24: transfers side by side): push, clone and pull
/// send or fetch up to N files at once, seen at a proxy with latency in front of moto; 1
/// sends one at a time; what arrives is the project, whole.
@Suite struct RemoteJobsTests {
    static let enabled = S3TestServer.isAvailable
    static let skipReason: Comment = "needs moto_server for the S3 remote: run scripts/setup.sh"

    /// moto behind a proxy adding 30 ms each way, and docctl's settings in the test's folder.
    final class Remote {
        let server: S3TestServer
        let proxy: FaultProxy
        let directory: TemporaryDirectory

        init(in directory: TemporaryDirectory, server: S3TestServer? = nil) throws {
            let server = try server ?? S3TestServer(bucket: "backups")
            self.server = server
            proxy = try FaultProxy(upstreamPort: try #require(server.endpoint.port), seed: 1, rate: 0, latency: 0.03)
            self.directory = directory
        }

        func docctl(_ arguments: [String]) throws -> ExternalTool.Result {
            try Run.docctl(
                arguments, in: directory.url,
                environment: server.environment.merging([
                    "AWS_ENDPOINT_URL": proxy.endpoint, "XDG_CONFIG_HOME": directory.path("config")
                ]) { $1 })
        }

        @discardableResult
        func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
            -> ExternalTool.Result
        {
            let result = try docctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
            return result
        }
    }

    @Test(.enabled(if: enabled, skipReason))
    func pushAndCloneRunUpToJobsRequestsAtOnceAndOneJobRunsOne() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let four = try Remote(in: directory)
        try four.succeed(["push", "garden.dkproj", "s3://backups/four", "--jobs", "4"])
        #expect((2...4).contains(four.proxy.mostAtOnce), "\(four.proxy.mostAtOnce) requests at once with --jobs 4")

        let one = try Remote(in: directory, server: four.server)
        try one.succeed(["push", "garden.dkproj", "s3://backups/one", "--jobs", "1"])
        #expect(one.proxy.mostAtOnce == 1, "\(one.proxy.mostAtOnce) requests at once with --jobs 1")

        let clone = try Remote(in: directory, server: four.server)
        try clone.succeed(["clone", "s3://backups/four", "-o", "copy.dkproj", "--jobs", "4"])
        #expect((2...4).contains(clone.proxy.mostAtOnce), "\(clone.proxy.mostAtOnce) requests at once with --jobs 4")
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory)
        let copy = try Remote(in: directory, server: four.server)
        try copy.succeed(["clone", "s3://backups/one", "-o", "one.dkproj", "--jobs", "1"])
        #expect(copy.proxy.mostAtOnce == 1)
        try expectSameVersions("one.dkproj", as: "garden.dkproj", in: directory)
    }

    /// `remote.jobs` is what a command runs without `--jobs`; the option wins over it.
    @Test(.enabled(if: enabled, skipReason))
    func theRemoteJobsSettingIsHonouredAndTheOptionWins() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let setting = try Remote(in: directory)
        try setting.succeed(["config", "set", "remote.jobs", "1"])
        try setting.succeed(["push", "garden.dkproj", "s3://backups/a"])
        #expect(setting.proxy.mostAtOnce == 1, "\(setting.proxy.mostAtOnce) requests at once with remote.jobs 1")
        let option = try Remote(in: directory, server: setting.server)
        try option.succeed(["push", "garden.dkproj", "s3://backups/b", "--jobs", "3"])
        #expect((2...3).contains(option.proxy.mostAtOnce), "\(option.proxy.mostAtOnce) requests at once with --jobs 3")
        try setting.succeed(["config", "set", "remote.jobs", "6"])
        let pull = try Remote(in: directory, server: setting.server)
        try pull.succeed(["clone", "s3://backups/b", "-o", "copy.dkproj"])
        #expect((2...6).contains(pull.proxy.mostAtOnce), "\(pull.proxy.mostAtOnce) requests at once with remote.jobs 6")
    }

    /// A folder remote takes files side by side too: push and clone with --jobs 4 give
    /// the project back whole, and leave no temporary file in the remote.
    @Test func aFolderRemoteTakesFilesSideBySide() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Fixtures.write(Fixtures.noise(3 << 20, seed: 11), to: "survey.png", in: directory.url)
        try Run.succeeding(
            ["attach", "garden.dkproj", "survey.png", "--as", "tasks[0].attachments[+]"], in: directory.url)
        try Run.succeeding(["push", "garden.dkproj", "remote", "--jobs", "4"], in: directory.url)
        try Run.succeeding(["clone", "remote", "-o", "copy.dkproj", "--jobs", "4"], in: directory.url)
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory)
        try Run.succeeding(["set", "garden.dkproj", "name", "Side by side"], in: directory.url)
        try Run.succeeding(["push", "garden.dkproj", "remote", "--jobs", "4"], in: directory.url)
        try Run.succeeding(["pull", "copy.dkproj", "remote", "--jobs", "4"], in: directory.url)
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory)
        let leftovers =
            FileManager.default.enumerator(atPath: directory.path("remote"))?.compactMap { $0 as? String }
            .filter { ($0 as NSString).lastPathComponent.hasPrefix(".") || $0.contains("documentkit-push") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test(arguments: [["push", "garden.dkproj", "remote"], ["clone", "remote"], ["pull", "garden.dkproj", "remote"]])
    func aJobsValueOutOfRangeIsAUsageErrorOfOneLine(command: [String]) throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        for (value, message) in [("0", "--jobs takes 1 to 64, not 0"), ("65", "--jobs takes 1 to 64, not 65")] {
            let result = try Run.docctl(command + ["--jobs", value], in: directory.url)
            #expect(result.status == 64 && result.output.isEmpty)
            #expect(
                result.standardError == "error: \(message) (see 'docctl \(command[0]) --help')\n",
                "\(result.standardError)")
        }
        let words = try Run.docctl(command + ["--jobs", "many"], in: directory.url)
        #expect(words.status == 64 && words.standardError.split(separator: "\n").count == 1, "\(words.standardError)")
    }

    /// Versions and documents of `copy` are those of `original`, and it validates deeply.
    private func expectSameVersions(
        _ copy: String, as original: String, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let theirs = try DocumentBundle(contentsOf: directory.url.appendingPathComponent(original))
        let ours = try DocumentBundle(contentsOf: directory.url.appendingPathComponent(copy))
        #expect(
            try ours.manifest.versions.map(\.id) == theirs.manifest.versions.map(\.id), sourceLocation: sourceLocation)
        for version in try theirs.manifest.versions {
            #expect(
                try ours.documentData(of: version) == theirs.documentData(of: version), "\(version.id)",
                sourceLocation: sourceLocation)
        }
        let validated = try Run.docctl(["validate", "--deep", copy], in: directory.url)
        #expect(validated.status == 0, "\(validated.output)\(validated.standardError)", sourceLocation: sourceLocation)
    }
}
