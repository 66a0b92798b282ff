import Foundation
import Testing

@testable import DocumentKit

/// The docctl commands every hostile input is given.
enum HostileCommand: String, CaseIterable, Sendable {
    case info
    case cat
    case get
    case validate
    case validateDeep = "validate --deep"
    case exportZip = "export --format zip"
    case exportDir = "export --format dir"
    case exportJSON = "export --format json"
    case importSource = "import"

    /// The command line for `file`, run in the corpus folder; outputs go to `../out`.
    func arguments(_ file: String) -> [String] {
        switch self {
        case .info: ["info", file]
        case .cat: ["cat", file]
        case .get: ["get", file, "name"]
        case .validate: ["validate", file]
        case .validateDeep: ["validate", "--deep", file]
        case .exportZip: ["export", file, "--format", "zip", "-o", "../out/x.zip"]
        case .exportDir: ["export", file, "--format", "dir", "-o", "../out/x"]
        case .exportJSON: ["export", file, "--format", "json", "-o", "../out/x.json"]
        case .importSource: ["import", file, "-o", "../out/x.dkproj"]
        }
    }

    /// What a successful run creates in `out`; `nil` for commands that only read.
    var output: String? {
        switch self {
        case .exportZip: "x.zip"
        case .exportDir: "x"
        case .exportJSON: "x.json"
        case .importSource: "x.dkproj"
        default: nil
        }
    }

    var isValidation: Bool { self == .validate || self == .validateDeep }
}

/// What one command must do with one input.
struct HostileOutcome: Sendable, CustomStringConvertible {
    /// The exit status.
    var status: Int32
    /// For a failure, a fragment of the one error line (which starts `error: FILE: `); for
    /// `validate`, a finding code its report must hold.
    var fragment: String?

    /// Success, with no message.
    static let ok = HostileOutcome(status: 0)
    /// A failure whose error line holds `fragment` (when given).
    static func fails(_ fragment: String?, status: Int32 = 65) -> HostileOutcome {
        HostileOutcome(status: status, fragment: fragment)
    }
    /// `validate` exits 1 with an error finding `code`.
    static func finds(_ code: String) -> HostileOutcome { HostileOutcome(status: 1, fragment: code) }
    /// `validate` exits 0 with only warnings, among them `code`.
    static func warns(_ code: String) -> HostileOutcome { HostileOutcome(status: 0, fragment: code) }
    /// `import` of something that is a bundle already (it has a mimetype entry).
    static let alreadyABundle = fails("is already a bundle (it has a mimetype entry)", status: 64)

    var description: String { "\(status)\(fragment.map { " '\($0)'" } ?? "")" }
}

/// One corpus file and what every command must do with it.
struct HostileCase: Sendable {
    var file: String
    var outcomes: [HostileCommand: HostileOutcome]

    /// `get` does what `cat` does unless told otherwise (it reads the same document, then
    /// parses it), and every export what the zip export does.
    init(
        _ file: String, info: HostileOutcome, cat: HostileOutcome, get: HostileOutcome? = nil, validate: HostileOutcome,
        deep: HostileOutcome? = nil, export: HostileOutcome, exportDir: HostileOutcome? = nil,
        exportJSON: HostileOutcome? = nil,
        importing: HostileOutcome = .alreadyABundle
    ) {
        self.file = file
        outcomes = [
            .info: info, .cat: cat, .get: get ?? cat, .validate: validate, .validateDeep: deep ?? validate,
            .exportZip: export, .exportDir: exportDir ?? export, .exportJSON: exportJSON ?? export,
            .importSource: importing
        ]
    }

    /// A file no reader opens: `info`, `cat`, `get` and every export fail with `fragment`,
    /// `validate` reports `finding`.
    static func unreadable(
        _ file: String, _ fragment: String?, finding: String = "container.invalid",
        importing: HostileOutcome = .alreadyABundle
    ) -> HostileCase {
        HostileCase(
            file, info: .fails(fragment), cat: .fails(fragment), validate: .finds(finding), export: .fails(fragment),
            importing: importing)
    }

    /// A foreign archive, for `import`: every bundle reader refuses it with `fragment`.
    static func archive(
        _ file: String, notABundle fragment: String = "not a DocumentKit bundle: not a zip archive",
        importing: HostileOutcome
    ) -> HostileCase {
        unreadable(
            file, fragment, finding: fragment.contains("mimetype") ? "mimetype.invalid" : "container.invalid",
            importing: importing)
    }
}

/// Builds the corpus (Tests/HostileCorpus/make_corpus.py) and runs every command on every
/// file under `BoundedRun`, checking what issue 5 asks of each run.
enum HostileCorpus {
    /// The corpus builder, a second implementation of the format in Python.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("HostileCorpus/make_corpus.py")

    /// The most resident memory any run may use. The largest legitimate use in the corpus
    /// is the deflate bomb imported up to the expansion limit (1,000 × 200 KB held as the
    /// document, then refused).
    static let maxResidentBytes = 384 << 20

    /// Makes a good bundle with docctl (two versions, a blob) and writes the corpus
    /// `families` from it into `directory/corpus`.
    static func build(_ families: [String], in directory: TemporaryDirectory) throws -> URL {
        // Signed, so that the corpus can forge signatures (a key of the test's own).
        let signing = ["XDG_CONFIG_HOME": directory.path("config")]
        try Run.docctl(["key", "new"], in: directory.url, environment: signing)
        // Format 2: the builder edits its manifest, which lists every record and object.
        // (Format 3's segments are refused by HistorySegmentTests and FormatThreeBundleTests.)
        try Run.docctl(["config", "set", "format-version", "2"], in: directory.url, environment: signing)
        try Run.docctl(["new", "good.dkproj", "--name", "Good"], in: directory.url, environment: signing)
        try Run.docctl(["set", "good.dkproj", "tasks[+]", #"{"title": "t"}"#], in: directory.url, environment: signing)
        try Data("hello, blob\n".utf8).write(to: directory.url.appendingPathComponent("b.png"))
        try Run.docctl(["attach", "good.dkproj", "b.png"], in: directory.url, environment: signing)
        let corpus = directory.url.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: false)
        let made = try ExternalTool.python3.run([
            script.path, directory.path("good.dkproj"), corpus.path, "--families=\(families.joined(separator: ","))"
        ])
        try #require(made.status == 0, "\(made.standardError)")
        return corpus
    }

    /// Runs every command of every case on the corpus in `directory/corpus`, and checks:
    /// the exit status; exactly one `error: FILE: …` line holding the expected fragment on
    /// failure (and nothing on stderr otherwise); no crash, no time-out, resident memory
    /// under ``maxResidentBytes``; the output (and nothing else) in `out` on success and
    /// nothing at all on failure; nothing in `TMPDIR`; the corpus unchanged, byte for byte.
    ///
    /// - Returns: how many commands ran.
    @discardableResult
    static func check(
        _ cases: [HostileCase], in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let corpus = directory.url.appendingPathComponent("corpus")
        let out = directory.url.appendingPathComponent("out")
        let temporary = directory.url.appendingPathComponent("tmp")
        let files = Fixtures.listing(corpus)
        #expect(
            files == cases.map(\.file).sorted(), "the corpus and the table list the same files",
            sourceLocation: sourceLocation)
        let before = try files.map { try Snapshot(corpus.appendingPathComponent($0)) }
        let runner = BoundedRun()
        var runs = 0
        for hostile in cases {
            for command in HostileCommand.allCases {
                let expected = try #require(hostile.outcomes[command])
                for folder in [out, temporary] {
                    try? FileManager.default.removeItem(at: folder)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                }
                let result = try runner.docctl(
                    command.arguments(hostile.file), in: corpus, environment: ["TMPDIR": temporary.path])
                runs += 1
                let what = "\(command.rawValue) \(hostile.file)"
                check(
                    result, expected, command: command, file: hostile.file, what: what, sourceLocation: sourceLocation)
                let written = Fixtures.listing(out)
                let expectedOutput = result.status == 0 ? command.output.map { [$0] } ?? [] : []
                #expect(written == expectedOutput, "\(what): wrote \(written)", sourceLocation: sourceLocation)
                #expect(
                    Fixtures.listing(temporary).isEmpty, "\(what): left files in TMPDIR", sourceLocation: sourceLocation
                )
                #expect(
                    Fixtures.listing(corpus) == files, "\(what): changed the corpus folder",
                    sourceLocation: sourceLocation)
            }
        }
        for (name, snapshot) in zip(files, before) {
            #expect(
                try Snapshot(corpus.appendingPathComponent(name)) == snapshot, "\(name) changed",
                sourceLocation: sourceLocation)
        }
        return runs
    }

    private static func check(
        _ result: BoundedRun.Result, _ expected: HostileOutcome, command: HostileCommand, file: String,
        what: String, sourceLocation: SourceLocation
    ) {
        #expect(!result.timedOut, "\(what): killed after \(result.seconds) s", sourceLocation: sourceLocation)
        #expect(
            result.signal == nil, "\(what): ended by signal \(result.signal ?? 0): \(result.standardError.prefix(300))",
            sourceLocation: sourceLocation)
        if BoundedRun.boundsMemory {
            #expect(
                result.maxResidentBytes <= maxResidentBytes, "\(what): \(result.maxResidentBytes >> 20) MiB resident",
                sourceLocation: sourceLocation)
        }
        #expect(
            result.status == expected.status,
            """
            \(what): exit \(result.status.map(String.init) ?? "-"), expected \(expected); stderr: \
            \(result.standardError)
            """,
            sourceLocation: sourceLocation)
        #expect(
            !result.standardError.contains("Fatal error") && !result.standardError.contains("Backtrac"),
            "\(what): \(result.standardError)", sourceLocation: sourceLocation)
        if command.isValidation {
            // validate reports on stdout, one line per finding, and exits 1 for errors.
            #expect(
                result.standardError.isEmpty, "\(what): stderr: \(result.standardError)", sourceLocation: sourceLocation
            )
            let report = String(decoding: result.standardOutput, as: UTF8.self)
            #expect(report.hasPrefix("\(file): "), "\(what): \(report)", sourceLocation: sourceLocation)
            if let code = expected.fragment {
                let severity = expected.status == 0 ? "warning" : "error"
                #expect(
                    report.contains("  \(severity) \(code): "),
                    "\(what): no \(severity) \(code) in \(report.prefix(2000))", sourceLocation: sourceLocation)
            } else {
                #expect(!report.contains("  error "), "\(what): \(report.prefix(2000))", sourceLocation: sourceLocation)
            }
        } else if expected.status == 0 {
            #expect(
                result.standardError.isEmpty, "\(what): stderr: \(result.standardError)", sourceLocation: sourceLocation
            )
        } else {
            let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                lines.count == 2 && lines[1].isEmpty, "\(what): one line on stderr, got: \(result.standardError)",
                sourceLocation: sourceLocation)
            #expect(
                result.standardError.hasPrefix("error: \(file): "), "\(what): \(result.standardError)",
                sourceLocation: sourceLocation)
            #expect(
                expected.fragment.map(result.standardError.contains) ?? true,
                "\(what): expected '\(expected.fragment ?? "")' in \(result.standardError)",
                sourceLocation: sourceLocation)
            #expect(
                result.standardOutput.isEmpty, "\(what): printed \(result.standardOutput.count) bytes",
                sourceLocation: sourceLocation)
        }
    }

    /// What proves a file unchanged: its identity and times, and for files small enough
    /// to read (not the sparse giants, nor a FIFO), its SHA-256.
    struct Snapshot: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec
        var digest: String?

        init(_ url: URL) throws {
            var info = stat()
            guard lstat(url.path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
            let regular = (info.st_mode & S_IFMT) == S_IFREG
            digest = regular && info.st_size < 64 << 20 ? try Fixtures.digest(of: url) : nil
        }

        static func == (a: Snapshot, b: Snapshot) -> Bool {
            a.inode == b.inode && a.size == b.size && a.digest == b.digest
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }
}
