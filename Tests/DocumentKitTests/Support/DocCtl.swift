import Foundation
import Testing

/// What a finished process printed and returned.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data
}

/// Runs real processes: docctl itself and the peer tools (unzip, bsdtar, python3).
enum Run {
    /// The docctl built beside the test binary (or `$DOCCTL` when set).
    static let docctlURL: URL = {
        if let path = ProcessInfo.processInfo.environment["DOCCTL"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].compactMap { $0?.appendingPathComponent("docctl") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs docctl with `arguments` in `directory`, with a fixed author, time zone and
    /// `SOURCE_DATE_EPOCH` unless `environment` overrides them.
    @discardableResult
    static func docctl(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                       stdin: Data? = nil) throws -> ProcessResult {
        var env = ["SOURCE_DATE_EPOCH": "1767225600", "TZ": "UTC", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"]
        env.merge(environment) { $1 }
        return try process(docctlURL, arguments, in: directory, environment: env, stdin: stdin)
    }

    /// Runs a program found on PATH.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        guard let url = which(name) else { throw ToolMissing(name: name) }
        return try process(url, arguments, in: directory, environment: environment, stdin: nil)
    }

    /// Whether a program is on PATH.
    static func has(_ name: String) -> Bool { which(name) != nil }

    static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static func process(_ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String], stdin: Data?) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData, as: UTF8.self), stdoutData: outputData)
    }

    struct ToolMissing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is not installed" }
    }
}

/// Expects a docctl failure: exactly one `error: …` line containing `fragment`, the
/// given exit status, nothing on stdout.
func expectFailure(_ result: ProcessResult, status: Int32, containing fragment: String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == status, "exit status; stderr: \(result.stderr)", sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1, "one line on stderr, got: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
}
