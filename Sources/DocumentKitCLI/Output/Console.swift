import DocumentKit
import Foundation

/// Where docctl's output goes: results on stdout, diagnostics on stderr.
enum Console {
    /// `--quiet`: no reports on stdout and no progress on stderr; errors still print.
    static var quiet: Bool {
        get { settings.value.quiet }
        set { settings.value.quiet = newValue }
    }
    /// `--json`: output for programs, and no progress.
    static var json: Bool {
        get { settings.value.json }
        set { settings.value.json = newValue }
    }
    /// Whether colour may be used at all: `NO_COLOR` unset or empty (https://no-color.org).
    static var colourAllowed: Bool {
        get { settings.value.colourAllowed }
        set { settings.value.colourAllowed = newValue }
    }

    /// The run's output choices, set once from its options and environment before the
    /// command's work starts, read from any thread that prints.
    private static let settings = Protected((quiet: false, json: false, colourAllowed: true))

    /// Prints a line on stdout, unless `--quiet`.
    static func print(_ text: String) {
        if quiet { return }
        ProgressDisplay.current?.clear()
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes raw bytes on stdout: output asked for by name (`-o -`), written even when `--quiet`.
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Prints `value` as pretty JSON with sorted keys on stdout, unless `--quiet`.
    static func printJSON<T: Encodable>(_ value: T) throws {
        if quiet { return }
        write(try CanonicalJSONEncoder().encode(value, terminated: true))
    }

    /// Prints `error: message` on stderr and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        printError(message)
        exit(status)
    }

    /// Prints `error: message` on stderr and goes on: for a command that reports each input
    /// that failed and carries on with the others (as `cat a b` does), or that names what
    /// went wrong before exiting with its own status.
    static func printError(_ message: String) {
        ProgressDisplay.current?.clear()
        FileHandle.standardError.write(Data("\(styled("error:", .red, on: STDERR_FILENO)) \(message)\n".utf8))
    }

    /// Prints a line on stderr that is no error (a lock being waited for), unless `--quiet`.
    static func note(_ text: String) {
        if quiet { return }
        ProgressDisplay.current?.clear()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The colours docctl uses: red for errors, yellow for warnings, green for what is well.
    enum Colour: String {
        case red = "31"
        case yellow = "33"
        case green = "32"
    }

    /// `text` in `colour` when `descriptor` is a terminal and colour is allowed; else as it is.
    static func styled(_ text: String, _ colour: Colour, on descriptor: Int32 = STDOUT_FILENO) -> String {
        guard colourAllowed, isatty(descriptor) == 1 else { return text }
        return "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m"
    }

    /// The terminal's width: `COLUMNS` when set, else the size the terminal reports, else 80.
    static func terminalWidth(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// `version 3 (abcdef123456)`.
    static func version(_ version: VersionSummary) -> String {
        "version \(version.number) (\(version.id.prefix(12)))"
    }
}
