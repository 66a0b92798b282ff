import Foundation
import Testing

/// What docctl shows on a terminal and only there: progress, colour, a lock being waited
/// for. A terminal is a pseudo-terminal made by `script -qc`.
@Suite struct TerminalTests {
    static let script = ExternalTool(name: "script")

    /// Runs `command` (a bash line, docctl as `$D`) under a pseudo-terminal; what the
    /// terminal showed, stdout and stderr together.
    static func onTerminal(_ command: String, in directory: TemporaryDirectory, environment: [String: String] = [:])
        throws -> ExternalTool.Result
    {
        try script.run(
            ["-qec", command, "/dev/null"],
            environment: Run.environment.merging(["D": Run.docctlURL.path, "COLUMNS": "100"]) { $1 }.merging(
                environment
            ) { $1 },
            in: directory.url)
    }

    /// A pipe that writes 2 MB, stalls 1.3 s (past the second a bar waits for), then 8 MB more.
    static let slowInput = "(head -c 2000000 /dev/zero; sleep 1.3; head -c 8000000 /dev/zero)"

    @Test(.enabled(if: script.isAvailable, "needs script(1)"))
    func progressIsDrawnOnATerminalAndErased() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let result = try Self.onTerminal("\(Self.slowInput) | $D attach garden.dkproj - --name big.bin", in: directory)
        #expect(result.status == 0, "\(result.output)")
        let screen = result.output
        #expect(screen.contains("\rreading    "), "a reading line: \(screen.debugDescription)")
        #expect(screen.contains("\rwriting    ["), "a writing bar: \(screen.debugDescription)")
        #expect(screen.contains(" MB/s"), "a rate")
        // The line is erased before the report, which stands alone on its line.
        #expect(screen.contains("\r\u{1B}[Ksaved version 9 ("), "\(screen.debugDescription)")
        let lines = screen.components(separatedBy: "\r")
        #expect(lines.allSatisfy { $0.count < 100 }, "every redraw fits the terminal's width")
        #expect(lines.count < 40, "at most about ten redraws a second: \(lines.count)")
    }

    @Test(.enabled(if: script.isAvailable, "needs script(1)"))
    func noProgressWhenPipedQuietOrJSON() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        // Standard error into a pipe: nothing but the report.
        let piped = try PipeTests.shell("\(Self.slowInput) | $D attach garden.dkproj - --name a.bin", in: directory)
        #expect(piped.status == 0 && piped.standardError == "", "\(piped.standardError)")
        let quiet = try Self.onTerminal(
            "\(Self.slowInput) | $D attach garden.dkproj - --name b.bin --quiet", in: directory)
        #expect(quiet.status == 0 && quiet.output == "", "\(quiet.output.debugDescription)")
        let json = try Self.onTerminal(
            "\(Self.slowInput) | $D attach garden.dkproj - --name c.bin --json", in: directory)
        #expect(json.status == 0 && json.output.hasPrefix("{"), "\(json.output.debugDescription)")
        // The terminal ends lines with \r\n; a redraw would be a \r alone.
        #expect(!json.output.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"), "no progress with --json")
    }

    @Test(.enabled(if: script.isAvailable, "needs script(1)"))
    func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let directory = try TemporaryDirectory()
        let missing = try Self.onTerminal("$D info missing.dkproj", in: directory, environment: ["NO_COLOR": ""])
        #expect(missing.status == 66)
        #expect(
            missing.output.hasPrefix("\u{1B}[31merror:\u{1B}[0m missing.dkproj: "), "\(missing.output.debugDescription)"
        )
        let plain = try Self.onTerminal("$D info missing.dkproj", in: directory, environment: ["NO_COLOR": "1"])
        #expect(
            plain.output.hasPrefix("error: missing.dkproj: ") && !plain.output.contains("\u{1B}"),
            "\(plain.output.debugDescription)")
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let valid = try Self.onTerminal("$D validate garden.dkproj", in: directory, environment: ["NO_COLOR": ""])
        #expect(valid.output.hasPrefix("garden.dkproj: \u{1B}[32mok ("), "\(valid.output.debugDescription)")
        let piped = try Run.docctl(["validate", "garden.dkproj"], in: directory.url, environment: ["NO_COLOR": ""])
        #expect(
            !piped.output.contains("\u{1B}") && piped.output.hasPrefix("garden.dkproj: ok ("), "no colour into a pipe")
    }

    @Test(.enabled(if: ExternalTool(name: "flock").isAvailable, "needs flock(1)"))
    func aWriterWaitingForTheLockSaysWhoHoldsIt() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        // The holder keeps the lock until docctl has said it waits (on its error output,
        // kept in a file meanwhile); docctl starts only once the lock is held.
        let result = try PipeTests.shell(
            """
            flock garden.dkproj sh -c 'until [ -s said ]; do sleep 0.05; done' & holder=$!
            while flock -n garden.dkproj true; do sleep 0.05; done
            $D set garden.dkproj name Waited 2>said; status=$?
            wait $holder
            cat said >&2; rm said
            exit $status
            """, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let pattern =
            #/^waiting for garden\.dkproj: locked by process \d+ \(flock garden\.dkproj sh -c until .+\) since \d\d:\d\d:\d\d\n$/#
        #expect(result.standardError.wholeMatch(of: pattern) != nil, "\(result.standardError)")
        #expect(result.output.hasPrefix("saved version 9 ("))
        // Quiet waits in silence (held for 1.5 s from before it starts).
        let quiet = try PipeTests.shell(
            """
            flock garden.dkproj sleep 1.5 & holder=$!
            while flock -n garden.dkproj true; do sleep 0.05; done
            $D set garden.dkproj name Again --quiet
            wait $holder
            """, in: directory)
        #expect(quiet.status == 0 && quiet.standardError == "" && quiet.output == "", "\(quiet.standardError)")
    }
}
