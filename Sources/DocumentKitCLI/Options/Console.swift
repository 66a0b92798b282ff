import DocumentKit
import Foundation

/// Where docctl's output goes: results on stdout, diagnostics on stderr.
enum Console {
    /// Prints a line on stdout.
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes raw bytes on stdout.
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Prints `value` as pretty JSON with sorted keys on stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        write(try CanonicalJSONEncoder().encode(value, terminated: true))
    }

    /// Prints `error: message` on stderr and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(status)
    }

    /// A byte count for people: `1.4 MB`.
    static func bytes(_ count: UInt64) -> String {
        if count < 1000 { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }

    /// `version 3 (abcdef123456)`.
    static func version(_ version: VersionSummary) -> String {
        "version \(version.number) (\(version.id.prefix(12)))"
    }
}
