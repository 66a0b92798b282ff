import Foundation

extension BundleLock {
    /// Takes the lock on the existing bundle at `url` as the configuration in force says:
    /// waiting at most its ``DocumentKitConfiguration/lockTimeout``, and telling its
    /// ``DocumentKitConfiguration/lockWaitHandler`` of a long wait.
    package static func acquire(_ url: URL) throws -> BundleLock {
        let configuration = DocumentKitConfiguration.current
        return try acquire(url, timeout: configuration.lockTimeout, observer: configuration.lockWaitHandler)
    }
}
