import Synchronization

extension WorkMeter {
    /// Adds `amount` of `kind` to the meter of the configuration in force, if it has one.
    /// Inlined into every layer's hot loops (a count per object encoded), where it costs
    /// one load of a flag unless a meter was made.
    @inlinable
    package static func count(_ kind: Kind, _ amount: Int = 1) {
        guard anyMade.load(ordering: .relaxed) else { return }
        record(kind, amount)
    }

    @usableFromInline
    static func record(_ kind: Kind, _ amount: Int) {
        DocumentKitConfiguration.current.workMeter?.add(kind, amount)
    }
}
