import Foundation

extension DocumentKitConfiguration {
    /// The configuration in force: the one the task or thread runs under (`apply(_:)`),
    /// else the one the program bootstrapped, else the defaults.
    public static var current: DocumentKitConfiguration {
        applied ?? bootstrapped.value ?? DocumentKitConfiguration()
    }

    /// Runs `body` under this configuration: every DocumentKit call it makes, on this thread
    /// or on the threads DocumentKit starts for it, uses it.
    public func apply<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$applied.withValue(self) { try body() }
    }

    /// Runs `body`, and the tasks it starts, under this configuration.
    public func apply<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$applied.withValue(self) { try await body() }
    }

    /// Makes `configuration` the one in force wherever none is applied, as swift-log's
    /// `LoggingSystem.bootstrap` sets the process's logging once: for a program (or a test
    /// process) whose every call shares one configuration. A second call replaces it.
    public static func bootstrap(_ configuration: DocumentKitConfiguration) {
        bootstrapped.value = configuration
    }

    @TaskLocal private static var applied: DocumentKitConfiguration?
    private static let bootstrapped = Protected<DocumentKitConfiguration?>(nil)
}
