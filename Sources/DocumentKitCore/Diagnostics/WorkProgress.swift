import Foundation

/// How far a long operation has got: the one way DocumentKit reports progress, for attach,
/// import, export, validate, prune, migrate and every save.
///
/// Bind a handler around the work with `reporting(to:during:)` (or its
/// `async` form); every operation that runs inside, on this thread or task, reports to
/// it. Work is counted in bytes, phase by phase: an attach hashes the file, then writes
/// the bundle; an import reads the source, then writes. Each phase starts with a report
/// of 0 bytes and ends with one whose `completedBytes` equals `totalBytes`; in between,
/// reports come at most every thousandth of the phase (and every 64 KiB at least), so a
/// handler may redraw on each. Without a handler, nothing is measured or reported.
///
/// ```swift
/// try WorkProgress.reporting(to: { print($0.phase, $0.fractionCompleted ?? 0) }) {
///     try BundleEdits.attach(...)
/// }
/// ```
public struct WorkProgress: Sendable, Equatable {
    /// What the bytes of a phase are.
    public enum Phase: String, Sendable, Equatable {
        /// Reading a source: an archive or a folder being imported.
        case reading
        /// Hashing files to be attached, before anything is written.
        case hashing
        /// Reading a bundle's objects to check them against their digests.
        case verifying
        /// Writing a bundle, an export or an archive.
        case writing
    }

    public var phase: Phase
    public var completedBytes: UInt64
    /// The bytes the phase will take, when they are known at its start (an import from a
    /// compressed stream knows only its compressed size, which is what it counts).
    public var totalBytes: UInt64?

    public init(phase: Phase, completedBytes: UInt64, totalBytes: UInt64?) {
        self.phase = phase
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes` as a fraction of `totalBytes`, from 0 to 1; `nil` without a total.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        return totalBytes == 0 ? 1 : min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// What receives reports; it is called on the thread doing the work, so it should be
    /// quick (a redraw, a message to another task).
    public typealias Handler = @Sendable (WorkProgress) -> Void

    /// Runs `body`, reporting the progress of the DocumentKit work it does to `handler`.
    public static func reporting<T>(to handler: @escaping Handler, during body: () throws -> T) rethrows -> T {
        try ProgressMeter.$current.withValue(ProgressMeter(handler: handler)) { try body() }
    }

    /// Runs `body`, reporting the progress of the DocumentKit work it does, in this task
    /// (and on the threads its `async` operations run blocking work on), to `handler`.
    public static func reporting<T>(to handler: @escaping Handler, during body: () async throws -> T) async rethrows
        -> T
    {
        try await ProgressMeter.$current.withValue(ProgressMeter(handler: handler)) { try await body() }
    }
}
