import Foundation

extension ValidationPass {
    /// Checks `state.json`, when the bundle has one: a JSON object no larger than the
    /// limit (FORMAT.md §3.1). Its contents are the application's, and are not checked
    /// further; nor is its position, which readers must not depend on.
    package mutating func checkState() {
        guard bundle.zip.entry(named: BundleEntry.state) != nil else { return }
        do {
            _ = try bundle.storedState()
        } catch {
            report("state.invalid", error.failureMessage, entry: BundleEntry.state)
        }
    }
}
