import DocumentKit
import Foundation
import Testing

/// `-` as standard input and output, through real pipes between real processes.
@Suite struct PipeTests {
    /// Runs `script` in bash in `directory`, with docctl as `$D` and the tests' environment.
    static func shell(_ script: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) throws
        -> ExternalTool.Result
    {
        try ExternalTool(name: "bash").run(
            ["-c", "set -o pipefail; " + script],
            environment: Run.environment.merging(["D": Run.docctlURL.path]) { $1 }.merging(environment) { $1 },
            in: directory.url)
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable, "needs bsdtar"))
    func exportWritesEveryArchiveFormatToStandardOutput() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let zip = try Self.shell(#"$D export garden.dkproj -o - --format zip | bsdtar -tf -"#, in: directory)
        #expect(zip.status == 0, "\(zip.standardError)")
        #expect(zip.output == "blobs/\nblobs/thumbnail.png\ndocument.json\n")
        #expect(zip.standardError == "")
        let tarGzip = try Self.shell(
            #"$D export garden.dkproj -o - --format tar.gz | gzip -dc | bsdtar -tf -"#, in: directory)
        #expect(
            tarGzip.status == 0 && tarGzip.output == "blobs/\nblobs/thumbnail.png\ndocument.json\n",
            "\(tarGzip.standardError)")
        let json = try Self.shell(
            #"$D export garden.dkproj -o - --format json | cmp - <($D cat garden.dkproj) && echo same"#, in: directory)
        #expect(json.output == "same\n", "\(json.standardError)")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"], "no file named -")
    }

    @Test func standardOutputTakesNoFolderAndNoSecondReport() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        expectFailure(
            try Run.docctl(["export", "garden.dkproj", "-o", "-", "--format", "dir"], in: directory.url), status: 64,
            containing: "error: --format dir writes a folder: name one with -o, not standard output\n")
        expectFailure(
            try Run.docctl(["export", "garden.dkproj", "-o", "-", "--format", "zip", "--json"], in: directory.url),
            status: 64,
            containing: "error: --json and -o - would both write to standard output\n")
        expectFailure(
            try Run.docctl(["extract", "garden.dkproj", "thumbnail", "-o", "-", "--json"], in: directory.url),
            status: 64,
            containing: "error: --json and -o - would both write to standard output\n")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"])
    }

    @Test func theOutputsExtensionNamesTheFormat() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        for (name, format, magic) in [
            ("g.tar.gz", "tar.gz", [UInt8]([0x1F, 0x8B])), ("g.tgz", "tar.gz", [0x1F, 0x8B]),
            ("g.tar.zst", "tar.zst", [0x28, 0xB5, 0x2F, 0xFD]), ("g.zip", "zip", [0x50, 0x4B]),
            ("g.json", "json", [0x7B])
        ] {
            let result = try Run.docctl(["export", "garden.dkproj", "-o", name], in: directory.url)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            #expect(
                result.output.hasPrefix("exported version 8 of garden.dkproj to \(name) (\(format), "),
                "\(result.output)")
            #expect(
                Array(try Data(contentsOf: directory.url.appendingPathComponent(name)).prefix(magic.count)) == magic,
                "\(name)")
        }
        // --format still wins over the name.
        try Run.docctl(["export", "garden.dkproj", "-o", "plain.tar.gz", "--format", "tar"], in: directory.url)
        #expect(
            Array(try Data(contentsOf: directory.url.appendingPathComponent("plain.tar.gz")).prefix(2)) != [0x1F, 0x8B])
    }

    @Test func attachReadsStandardInput() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let picture = Fixtures.noise(300_000)
        _ = try Fixtures.write(picture, to: "x.png", in: directory.url)
        let attach = try Self.shell(#"cat x.png | $D attach garden.dkproj - --name photo.png"#, in: directory)
        #expect(attach.status == 0, "\(attach.standardError)")
        #expect(attach.output.hasPrefix("saved version 9 ("), "\(attach.output)")
        #expect(attach.output.hasSuffix(") of garden.dkproj: Attach photo.png\n"), "\(attach.output)")
        let reference = try Run.docctl(["get", "garden.dkproj", "thumbnail"], in: directory.url)
        #expect(
            reference.output == """
                {
                  "$blob" : "\(ObjectDigest.of(picture).hex)",
                  "mediaType" : "image/png",
                  "name" : "photo.png",
                  "size" : 300000
                }

                """)
        let back = try Run.docctl(["extract", "garden.dkproj", "thumbnail", "-o", "-"], in: directory.url)
        #expect(back.standardOutput == picture)
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "x.png"], "the spooled copy is gone")

        let typed = try Self.shell(
            #"printf 'notes' | $D attach garden.dkproj - --name notes --media-type text/markdown"#, in: directory)
        #expect(typed.status == 0, "\(typed.standardError)")
        #expect(
            try Run.docctl(["get", "garden.dkproj", "thumbnail.mediaType"], in: directory.url).output
                == "text/markdown\n")
        // Refused before standard input is read: from a file, so no writer gets EPIPE.
        let withoutName = try Self.shell(#"$D attach garden.dkproj - < x.png"#, in: directory)
        expectFailure(
            withoutName, status: 64, containing: "error: attach - reads standard input: name it with --name\n")
        let badName = try Self.shell(#"$D attach garden.dkproj - --name a/b.png < x.png"#, in: directory)
        expectFailure(badName, status: 64, containing: "error: 'a/b.png' is not a file name: give a name without '/'\n")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "x.png"])
    }

    @Test func setReadsAValueFromStandardInput() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let json = try Self.shell(
            #"echo '{"title": "From a pipe"}' | $D set garden.dkproj 'tasks[+]' - -m piped"#, in: directory)
        #expect(json.status == 0, "\(json.standardError)")
        #expect(
            try Run.docctl(["get", "garden.dkproj", "tasks[-1].title"], in: directory.url).output == "From a pipe\n")
        let text = try Self.shell(#"printf 'Two\nlines\n' | $D set garden.dkproj name - --string"#, in: directory)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            try Run.docctl(["get", "garden.dkproj", "name", "--json"], in: directory.url).output == "\"Two\\nlines\"\n")
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))
        let broken = try Self.shell(#"echo '{"title": ' | $D set garden.dkproj 'tasks[0]' -"#, in: directory)
        expectFailure(broken, status: 65, containing: "error: standard input: not valid JSON: ")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable, "needs bsdtar"))
    func importReadsAnArchiveOrJSONFromStandardInput() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let archive = try Self.shell(
            #"$D export garden.dkproj -o - --format tar.zst | $D import - -o copy.dkproj"#, in: directory)
        #expect(archive.status == 0, "\(archive.standardError)")
        #expect(archive.output.hasPrefix("imported - into copy.dkproj at version 1 ("), "\(archive.output)")
        let original = try Run.docctl(["cat", "garden.dkproj"], in: directory.url).output
        #expect(try Run.docctl(["cat", "copy.dkproj"], in: directory.url).output == original)
        #expect(
            try Run.docctl(["extract", "copy.dkproj", "thumbnail", "-o", "-"], in: directory.url).standardOutput
                == (try Run.docctl(["extract", "garden.dkproj", "thumbnail", "-o", "-"], in: directory.url)
                    .standardOutput))
        let json = try Self.shell(
            #"echo '{"name": "Piped"}' | $D import - -o piped.dkproj --json | grep -c '"number" : 1'"#, in: directory)
        #expect(json.output == "1\n", "\(json.standardError)")
        let garbage = try Self.shell(#"printf 'not an archive' | $D import - -o bad.dkproj"#, in: directory)
        #expect(garbage.status == 65, "\(garbage.standardError)")
        #expect(garbage.standardError.hasPrefix("error: standard input: "), "\(garbage.standardError)")
        #expect(Fixtures.listing(directory.url) == ["copy.dkproj", "garden.dkproj", "piped.dkproj"])
    }
}
