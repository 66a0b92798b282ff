import DocumentKit
import Foundation

/// The progress line docctl draws on a terminal while a long operation runs:
///
///     writing  [##########··········]  52%  261.4 MB of 500.0 MB  87.1 MB/s  3 s left
///
/// It appears only once the work has run a second (quick commands never flash a bar),
/// is redrawn at most ten times a second, and is erased before anything else is printed
/// and at the end. It is drawn on standard error, and only when that is a terminal and
/// neither `--quiet` nor `--json` was given: a script sees nothing.
final class ProgressDisplay: @unchecked Sendable {
    private struct State {
        /// When each phase was first seen, by its kind and total: a phase nested in another
        /// (a save inside an import) reports between the outer one's reports, and each
        /// keeps its own clock for its rate.
        var phaseStarts: [String: (time: Date, completed: UInt64)] = [:]
        var lastDrawn: Date?
        var shown = false
    }

    /// The display of this run, when one is wanted.
    static var current: ProgressDisplay? {
        get { shown.value }
        set { shown.value = newValue }
    }

    private static let shown = Protected<ProgressDisplay?>(nil)

    private let lock = NSLock()
    private var state = State()
    private let started = Date()
    private let width: Int
    private let write: @Sendable (String) -> Void

    /// A display when standard error is a terminal and nothing asked for silence.
    static func forTerminal(environment: [String: String]) -> ProgressDisplay? {
        guard isatty(STDERR_FILENO) == 1, !Console.quiet, !Console.json else { return nil }
        return ProgressDisplay(width: Console.terminalWidth(environment: environment)) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    init(width: Int, write: @escaping @Sendable (String) -> Void) {
        self.width = width
        self.write = write
    }

    /// Receives a report from the work (on the thread doing it).
    func report(_ progress: WorkProgress, now: Date = Date()) {
        lock.withLock {
            let key = "\(progress.phase.rawValue)/\(progress.totalBytes.map(String.init) ?? "-")"
            if let start = state.phaseStarts[key], progress.completedBytes < start.completed {
                state.phaseStarts[key] = nil
            }
            let start = state.phaseStarts[key] ?? (now, progress.completedBytes)
            state.phaseStarts[key] = start
            let finished = progress.totalBytes.map { progress.completedBytes >= $0 } ?? false
            guard now.timeIntervalSince(started) >= 1 else { return }
            if let last = state.lastDrawn, now.timeIntervalSince(last) < 0.1, !finished { return }
            state.lastDrawn = now
            state.shown = true
            write(
                "\r" + line(progress, since: start.completed, elapsed: now.timeIntervalSince(start.time)) + "\u{1B}[K")
        }
    }

    /// Erases the line, if it is shown: before other output, and at the end.
    func clear() {
        lock.withLock {
            guard state.shown else { return }
            state.shown = false
            state.lastDrawn = nil
            write("\r\u{1B}[K")
        }
    }

    /// The text of the line, at most `width - 1` columns (the last column of a terminal
    /// wraps in some).
    func line(_ progress: WorkProgress, since first: UInt64 = 0, elapsed: TimeInterval) -> String {
        let done = progress.completedBytes
        let rate = elapsed > 0.2 ? Double(done - min(first, done)) / elapsed : nil
        var parts = [progress.phase.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)]
        var tail: [String] = []
        if let total = progress.totalBytes, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            tail.append(String(format: "%3d%%", Int(fraction * 100)))
            tail.append("\(ByteCount.readable(done)) of \(ByteCount.readable(total))")
            if let rate { tail.append("\(ByteCount.readable(UInt64(rate)))/s") }
            if let rate, rate > 0, done < total { tail.append("\(Self.duration(Double(total - done) / rate)) left") }
            // The bar keeps one width for the whole run, from the widest tail it can have
            // ("100%  999.9 MB of 999.9 MB  999.9 MB/s  9 min 59 s left" but rarer ones), so
            // it never jumps; a rare longer tail is cut at the terminal's edge.
            let barWidth = min(30, width - 1 - parts[0].count - 48 - 6)
            if barWidth >= 10 {
                let filled = Int(fraction * Double(barWidth))
                parts.append(
                    "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: barWidth - filled) + "]"
                )
            }
        } else {
            tail.append(ByteCount.readable(done))
            if let rate { tail.append("\(ByteCount.readable(UInt64(rate)))/s") }
        }
        let text = (parts + tail).joined(separator: "  ")
        return String(text.prefix(max(0, width - 1)))
    }

    /// `42 s`, `3 min 5 s`, `1 h 4 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
