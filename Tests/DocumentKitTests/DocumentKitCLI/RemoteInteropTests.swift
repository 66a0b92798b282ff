import DocumentKitArchive
import Foundation
import Testing

@testable import DocumentKit

/// An S3 remote is plain S3 and plain OCFL, to other tools as to docctl: boto3 (the AWS
/// SDK for Python) lists and downloads what docctl pushed, and ocfl-py finds the download a
/// valid storage root; a storage root docctl wrote to a folder, uploaded file by file with
/// boto3, is cloned by docctl. On each server (moto, radosgw).
@Suite struct RemoteInteropTests {
    typealias Remote = RemoteCommandTests.Remote

    static let enabled = S3TestServer.isAvailable && OCFLDepositTests.validatorAvailable
    static let skipReason: Comment = "needs moto_server, boto3 and ocfl-py: run scripts/setup.sh"

    /// A test's folder and a remote on `service`, and in the folder garden.dkproj with one
    /// more version, a 9 MiB attachment: a file that docctl and boto3 both send in parts
    /// (each above 8 MiB).
    private func garden(on service: S3Service) throws -> (TemporaryDirectory, Remote, S3TestServer) {
        let directory = try TemporaryDirectory()
        let remote = try Remote(RemoteCommandTests.Kind(service), in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Fixtures.write(Fixtures.noise(9 << 20), to: "plan.bin", in: directory.url)
        try remote.succeed(["attach", "garden.dkproj", "plan.bin", "--as", "tasks[0].attachments[+]"])
        return (directory, remote, try #require(remote.server))
    }

    private func ids(_ bundle: String, in directory: TemporaryDirectory) throws -> [VersionID] {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest.versions.map(\.id)
    }

    /// A bundle's entries as its central directory lists them: name, size and CRC-32.
    private func entries(_ bundle: String, in directory: TemporaryDirectory) throws -> [String] {
        try StoredZipReader(path: directory.path(bundle)).entries.map { "\($0.name) \($0.size) \($0.crc32)" }
    }

    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func whatDocctlPushedIsDownloadedByBoto3AndValidToOCFLPy(_ service: S3Service) throws {
        let (directory, remote, server) = try garden(on: service)
        try remote.succeed(["push", "garden.dkproj", remote.address])

        let listed = try server.boto3(["download", remote.bucket, "team/garden", directory.path("download")])
        let keys = try remote.store().list(prefix: "").keys.map { "team/garden/\($0)" }
        #expect(listed.split(separator: "\n").map(String.init).sorted() == keys.sorted())
        #expect(keys.contains { $0.hasSuffix("/inventory.json") } && keys.contains { $0.hasSuffix("/0=ocfl_1.1") })
        let validated = try RemoteInterruptionTests.validateRoot(directory.path("download"))
        #expect(validated.valid && validated.errors.isEmpty, "\(validated.output)")
        // Byte for byte the storage root docctl writes of the same bundle to a folder.
        try remote.succeed(["push", "garden.dkproj", directory.path("folder")])
        let archive = OCFLDepositTests()
        #expect(
            try archive.hashes(directory.url.appendingPathComponent("download"))
                == archive.hashes(directory.url.appendingPathComponent("folder")))
    }

    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func aStorageRootUploadedByBoto3IsClonedByDocctl(_ service: S3Service) throws {
        let (directory, remote, server) = try garden(on: service)
        try remote.succeed(["push", "garden.dkproj", directory.path("folder")])
        try server.boto3(["upload", directory.path("folder"), remote.bucket, "team/garden"])

        try remote.succeed(["clone", remote.address, "-o", "from-s3.dkproj"])
        try remote.succeed(["validate", "--deep", "from-s3.dkproj"])
        #expect(try ids("from-s3.dkproj", in: directory) == ids("garden.dkproj", in: directory))
        // The same entries, byte for byte, as a clone of the folder, once each forgets the
        // remote it came from (which clone remembers in the bundle's state; the rewrite of
        // the state leaves unlisted bytes that differ).
        try remote.succeed(["clone", directory.path("folder"), "-o", "from-folder.dkproj"])
        for bundle in ["from-s3.dkproj", "from-folder.dkproj"] {
            try remote.succeed(["state", "unset", bundle, "remote.default"])
        }
        #expect(try entries("from-s3.dkproj", in: directory) == entries("from-folder.dkproj", in: directory))
        // And it pushes back to the bucket boto3 filled: nothing to send.
        #expect(
            try remote.succeed(["push", "from-s3.dkproj", remote.address]).output.contains(
                " is up to date with from-s3.dkproj"))
    }
}
