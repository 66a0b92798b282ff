import DocumentKitStore
import Foundation

extension ValidationPass {
    /// Checks the version records and the graph their parents make (FORMAT.md §5): every
    /// id is its record's hash, and every signature one of that id; every parent comes before its child, or was pruned, so the
    /// graph has no cycle and nothing dangles; one history (a single version without
    /// parents, the first); the head last. A format-1 bundle is also one line of versions
    /// whose records hold their own numbers.
    package mutating func checkVersions() {
        var earlier = Set<VersionID>()
        let pruned = Set(manifest.pruned)
        let later = Dictionary(manifest.versions.map { ($0.id, $0.number) }, uniquingKeysWith: { first, _ in first })
        let formats = Dictionary(manifest.versions.map { ($0.id, $0.recordFormat) }, uniquingKeysWith: { first, _ in first })
        var previous: BundleVersion?
        for version in manifest.versions {
            if earlier.contains(version.id) {
                report("version.duplicate-id", "two versions have the id \(version.shortID)", version: version.number)
            }
            if version.computeID() != version.id {
                report("version.id-mismatch", "the id does not match the version's record (it was altered after saving)", version: version.number)
            }
            if let signature = version.signature, signature.signer(ofVersion: version.id) == nil {
                report("version.signature-invalid", "its signature is not a signature of its id by the key it names (the record or the signature was altered)", version: version.number)
            }
            checkParents(of: version, earlier: earlier, pruned: pruned, later: later, isFirst: previous == nil)
            // Format 1 was only ever written before format 2 (§5.1): a format-1 record made
            // from a format-2 one was written by no DocumentKit, and its number would claim a
            // place in a line of versions that had already ended.
            if version.recordFormat == 1, let parent = version.parents.first(where: { formats[$0] == 2 }) {
                report("version.record-format", "is a format-1 record whose parent \(parent.prefix(12)) is a format-2 record; format-1 records come only before format-2 ones", version: version.number)
            }
            if manifest.formatVersion == 1 { checkFormatOne(version, after: previous) }
            if manifest.objects[version.tree] == nil {
                report("tree.missing", "its tree object \(version.tree.short) is not listed in the manifest", version: version.number)
            }
            earlier.insert(version.id)
            previous = version
        }
        if let last = manifest.versions.last, last.id != manifest.head {
            report("manifest.head-not-latest", "the head is not the newest version", version: last.number)
        }
    }

    private mutating func checkParents(of version: BundleVersion, earlier: Set<VersionID>, pruned: Set<VersionID>,
                                       later: [VersionID: Int], isFirst: Bool) {
        let parents = version.parents
        if Set(parents).count != parents.count {
            report("version.parents", "names the same parent twice", version: version.number)
        }
        if parents.count > 2 || (version.recordFormat == 1 && parents.count > 1) {
            report("version.parents", "names \(parents.count) parents; a version has at most \(version.recordFormat == 1 ? "one (format-1 record)" : "two (a merge)")", version: version.number)
        }
        // The first version may be held beside pruned ids: a pull lists the parents the
        // other copy pruned (FORMAT.md §5.3) while this copy still holds its first version.
        if parents.isEmpty, !isFirst {
            report("version.second-root", "has no parent but is not the first version: a bundle holds one history", version: version.number)
        }
        for parent in parents where !earlier.contains(parent) && !pruned.contains(parent) {
            if let number = later[parent] {
                report("version.parent-order", "names version \(number) (\(parent.prefix(12))) as its parent, which comes after it: a version must follow its parents, so parents cannot form a cycle", version: version.number)
            } else {
                report("version.parent-missing", "names a parent (\(parent.prefix(12))) that is neither in the bundle nor recorded as pruned", version: version.number)
            }
        }
    }

    /// A format-1 bundle: every record is a format-1 record holding its number, and each
    /// version's parent is the one before it.
    private mutating func checkFormatOne(_ version: BundleVersion, after previous: BundleVersion?) {
        guard let recorded = version.numberInID else {
            report("version.record-format", "a format-1 bundle holds a record without a number (format 2)", version: version.number)
            return
        }
        if recorded != version.number {
            report("version.order", "its record says version \(recorded), but it is version \(version.number) of the history (a version was added, removed or moved)", version: version.number)
        }
        if let previous, version.parents != [previous.id] {
            report("version.chain-broken", "its parent should be version \(previous.number) (\(previous.shortID))", version: version.number)
        }
    }
}
