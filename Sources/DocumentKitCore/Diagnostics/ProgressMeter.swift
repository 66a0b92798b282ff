import Foundation

/// What counts the bytes of a `WorkProgress` phase and reports them to the handler bound
/// with `WorkProgress.reporting`. Phases are opened where their total is known (a write
/// of a bundle knows what it will write); bytes are counted where they pass (an archive
/// entry's writes, a stored entry's reads), which reaches every operation through one
/// place each. The meter is bound as a task-local value, so with no handler, counting is
/// one read of it.
package final class ProgressMeter: Sendable {
    /// The meter of the work running here, if anyone asked for reports.
    @TaskLocal package static var current: ProgressMeter?

    /// Which bytes a phase counts: those read, or those written. An export reads objects
    /// and writes them; its phase counts only what it writes.
    package enum Direction: Sendable {
        case read, written
    }

    private struct Phase {
        var phase: WorkProgress.Phase
        var direction: Direction
        var completed: UInt64 = 0
        var total: UInt64?
        var nextReport: UInt64 = 0
    }

    private let handler: WorkProgress.Handler
    private let phases = Protected<[Phase]>([])

    init(handler: @escaping WorkProgress.Handler) { self.handler = handler }

    /// Runs `body` as a phase of `totalBytes` (`nil` when unknown) counting bytes that go
    /// `direction`. A phase opened inside another (a save inside an import) counts alone
    /// until it ends; then the outer phase goes on. The total is worked out only when a
    /// handler listens: every save opens a phase, and most have no one watching.
    package static func phase<T>(
        _ phase: WorkProgress.Phase, counting direction: Direction, totalBytes: @autoclosure () -> UInt64?,
        _ body: () throws -> T
    ) rethrows -> T {
        guard let meter = current else { return try body() }
        meter.phases.mutate { $0.append(Phase(phase: phase, direction: direction, total: totalBytes())) }
        meter.report(force: true)
        defer {
            meter.phases.mutate { phases in
                if var last = phases.last {
                    last.completed = max(last.completed, last.total ?? last.completed)
                    last.total = last.completed
                    phases[phases.count - 1] = last
                }
            }
            meter.report(force: true)
            meter.phases.mutate { _ = $0.popLast() }
        }
        return try body()
    }

    /// Counts `bytes` that went `direction`, for the current phase if it counts them.
    @inline(__always)
    package static func advance(_ direction: Direction, by bytes: Int) {
        guard let meter = current else { return }
        meter.advance(direction, by: bytes)
    }

    private func advance(_ direction: Direction, by bytes: Int) {
        let due = phases.mutate { phases -> Bool in
            guard var last = phases.last, last.direction == direction else { return false }
            last.completed += UInt64(max(bytes, 0))
            if let total = last.total, last.completed > total { last.total = last.completed }
            phases[phases.count - 1] = last
            return last.completed >= last.nextReport
        }
        if due { report(force: false) }
    }

    /// Reports the current phase, and schedules the next report a thousandth of the total
    /// (at least 64 KiB) further on.
    private func report(force: Bool) {
        let progress = phases.mutate { phases -> WorkProgress? in
            guard var last = phases.last, force || last.completed >= last.nextReport else { return nil }
            last.nextReport = last.completed + max(64 << 10, (last.total ?? 0) / 1000)
            phases[phases.count - 1] = last
            return WorkProgress(phase: last.phase, completedBytes: last.completed, totalBytes: last.total)
        }
        if let progress { handler(progress) }
    }

    /// Runs `body` with `meter` as the current one: for work that moves to a thread of its
    /// own, where task-local values do not follow.
    package static func bind<T>(_ meter: ProgressMeter?, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(meter) { try body() }
    }
}
