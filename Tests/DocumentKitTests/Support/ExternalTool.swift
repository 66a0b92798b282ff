import Foundation
import Testing

/// A command-line tool that interoperability tests run as a real process: `unzip`,
/// `bsdtar`, `python3`, `zstd`, `zip`.
///
/// Tests that need one declare `.enabled(if: ExternalTool.unzip.isAvailable, ...)` so that
/// a machine without it reports them as skipped instead of failed.
struct ExternalTool: Sendable {
    /// What a finished process left behind.
    struct Result {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var output: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The tool's name, looked up in `PATH` unless `path` is given.
    let name: String
    /// Where the tool is, when it is not looked up in `PATH` (docctl, built beside the tests).
    var path: String? = nil

    static let unzip = ExternalTool(name: "unzip")
    static let bsdtar = ExternalTool(name: "bsdtar")
    static let python3 = ExternalTool(name: "python3")
    static let zstd = ExternalTool(name: "zstd")
    static let zip = ExternalTool(name: "zip")

    /// The tool's full path, or `nil` when it is not installed.
    var executablePath: String? {
        if let path { return FileManager.default.isExecutableFile(atPath: path) ? path : nil }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the tool is installed.
    var isAvailable: Bool { executablePath != nil }

    /// A tool that exits before reading all its input (a decoder refusing damaged bytes)
    /// must fail its test, not end the whole test run with SIGPIPE when the rest is
    /// written: writes to a closed pipe then fail with EPIPE instead. Children start with
    /// the signal at its default.
    private static let brokenPipesAreErrors: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts `process`, trying again while the system says its file is busy (ETXTBSY):
    /// a binary a test has just copied can be held open for writing, for a moment, by a
    /// child another test forked meanwhile, which inherited the copy's descriptor.
    private static func start(_ process: Process) throws {
        for attempt in 1... {
            do {
                return try process.run()
            } catch let error as NSError
                where attempt < 50 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY)
            {
                usleep(20_000)
            }
        }
    }

    /// Runs the tool with `arguments` and waits for it, in `environment` (by default
    /// ``TestEnvironment/clean``); kills it, and records a failure, when it runs past
    /// ``ProcessDeadline/seconds``.
    @discardableResult
    func run(
        _ arguments: [String], environment: [String: String] = TestEnvironment.clean, input: Data? = nil,
        in directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        _ = Self.brokenPipesAreErrors
        guard let executablePath else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try Self.start(process)
        let watchdog = ProcessDeadline.watch(process)
        // Read both pipes while the process runs, or a chatty tool blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: input) }
        try stdin.fileHandleForWriting.close()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        if watchdog.cancel() {
            ProcessDeadline.recordKill(of: ([name] + arguments).joined(separator: " "), sourceLocation: sourceLocation)
        }
        return Result(
            status: process.terminationStatus, standardOutput: outputData,
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs a Python 3 script with `arguments` (available to it as `sys.argv[1:]`).
    static func python(_ script: String, _ arguments: [String] = []) throws -> Result {
        try python3.run(["-c", script] + arguments)
    }
}
