import Foundation
import Testing

@testable import DocumentKit

/// The same input gives the same bytes whatever the time zone, umask and locale.
///
/// Time zone and locale are process-wide and read lazily by the C library, so changing them
/// inside this (parallel) test process would be unreliable and unsafe. Instead the test
/// runs this test binary again, twice, under different settings, with a filter that
/// selects only ``writeArchivesForDeterminismCheck()``, and compares what the runs wrote.
@Suite struct DeterminismTests {
    static let outputDirectory = ProcessInfo.processInfo.environment["DOCUMENTKIT_DETERMINISM_OUTPUT"]

    /// Runs only in the child processes: writes one archive of each kind.
    @Test(.enabled(if: outputDirectory != nil, "runs only inside writesTheSameBytesInEveryTimeZoneUmaskAndLocale"))
    func writeArchivesForDeterminismCheck() throws {
        let directory = try #require(Self.outputDirectory)
        let names = ["mimetype", "Übersicht/日本語.txt", "objects/ab/cdef"]
        let contents = [Data("application/x-test".utf8), Data("こんにちは".utf8), Data(repeating: 7, count: 70_000)]
        try writeStoredZip(at: "\(directory)/bundle.zip") { writer in
            for (name, data) in zip(names, contents) { try writer.addEntry(name: name, data: data) }
        }
        for format in ArchiveWriteFormat.allCases {
            try writeArchive(at: "\(directory)/export.\(format.fileExtension)", format: format) { writer in
                try writer.addDirectory(name: "Übersicht", modificationTime: format == .zip ? nil : 1_700_000_000)
                for (name, data) in zip(names, contents) {
                    try writer.addFile(name: name, data: data, modificationTime: format == .zip ? nil : 1_700_000_000)
                }
            }
        }
        let frame = try ZstdCodec.compress(contents[2])
        try frame.write(to: URL(fileURLWithPath: "\(directory)/object.zst"))
    }

    @Test func writesTheSameBytesInEveryTimeZoneUmaskAndLocale() throws {
        let binary = CommandLine.arguments[0]
        try #require(FileManager.default.isExecutableFile(atPath: binary), "cannot find the test binary to rerun")
        let directory = try TemporaryDirectory()
        // UTC, UTC+14 and UTC-12; the last as a POSIX TZ string, which needs no tzdata.
        let settings = [("UTC", "022", "C"), ("Pacific/Kiritimati", "077", "C.UTF-8"), ("BIT+12", "002", "POSIX")]
        var runs: [[String: Data]] = []
        for (index, (timeZone, mask, locale)) in settings.enumerated() {
            let output = directory.path("run\(index)")
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
            var environment = TestEnvironment.clean
            environment["TZ"] = timeZone
            environment["LC_ALL"] = locale
            environment["DOCUMENTKIT_DETERMINISM_OUTPUT"] = output
            let result = try ExternalTool(name: "sh").run(
                [
                    "-c",
                    """
                    umask \(mask) && exec \"$0\" --testing-library swift-testing --filter \
                    writeArchivesForDeterminismCheck
                    """,
                    binary
                ],
                environment: environment)
            #expect(result.status == 0, "\(result.output.suffix(2000))\(result.standardError.suffix(2000))")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: output) {
                files[name] = try bytes(ofFile: "\(output)/\(name)")
            }
            runs.append(files)
        }
        #expect(
            runs[0].keys.sorted() == [
                "bundle.zip", "export.tar", "export.tar.gz", "export.tar.xz", "export.tar.zst", "export.zip",
                "object.zst"
            ])
        for (name, data) in runs[0] {
            #expect(!data.isEmpty, "\(name)")
            for run in runs.dropFirst() { #expect(run[name] == data, "\(name) differs between runs") }
        }
    }
}
