import Foundation

/// Which versions a bundle holds or pruned, learned by walking its history newest first
/// only as far as the questions asked need (a pull from a remote asks about the versions
/// of the remote's newest segments): a version is known when the walk has met it, or met
/// a version it is an ancestor of. A format-1 or format-2 bundle lists its history.
struct KnownVersions {
    private var walk: DocumentBundle.VersionsNewestFirst?
    private let listed: Set<VersionID>?
    private let pruned: Set<VersionID>
    private var met = Set<VersionID>()
    /// Parents of versions met: held or pruned too.
    private var ancestors = Set<VersionID>()

    init(_ bundle: DocumentBundle) throws {
        walk = bundle.versionsNewestFirst()
        listed = walk == nil ? Set(try bundle.manifest.versions.map(\.id)) : nil
        pruned = Set(try bundle.prunedVersionIDs())
    }

    /// Whether the bundle holds or pruned `id`, walking at most `steps` more versions to
    /// learn it: a version the walk has not met within them counts as unknown.
    mutating func knows(_ id: VersionID, steps: Int) throws -> Bool {
        if let listed { return listed.contains(id) || pruned.contains(id) }
        if met.contains(id) || ancestors.contains(id) || pruned.contains(id) { return true }
        for _ in 0..<steps {
            guard let version = try walk?.next() else {
                walk = nil
                return false
            }
            met.insert(version.id)
            ancestors.formUnion(version.parents)
            if version.id == id || ancestors.contains(id) { return true }
        }
        return false
    }
}
