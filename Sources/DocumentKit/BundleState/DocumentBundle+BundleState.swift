import Foundation

extension DocumentBundle {
    /// Typed access to the state of the bundle file at `url`: every read and write
    /// goes to the file as it is then, not to this opened snapshot, and a write never
    /// makes a version (see ``BundleState``).
    public var state: BundleState {
        BundleState(bundle: url)
    }
}
