import Foundation

/// What a piece of work runs under: the configuration and the progress meter. Task-local
/// values stay with their task, so work DocumentKit moves to a thread of its own takes them
/// along: captured where the work is handed over, bound on the thread that does it.
package struct WorkContext: Sendable {
    private let configuration: DocumentKitConfiguration
    private let meter: ProgressMeter?

    /// The context of the calling task or thread.
    package static var current: WorkContext {
        WorkContext(configuration: .current, meter: ProgressMeter.current)
    }

    /// Runs `body` in this context.
    package func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
        try configuration.apply { try ProgressMeter.bind(meter, body) }
    }

    /// Runs `body` in this context on a new thread.
    package func detachThread(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in bind(body) }
    }
}
