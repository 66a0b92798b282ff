import DocumentKitBundle
import Foundation

extension ValidationPass {
    /// Checks the listed version records (formats 1 and 2, and `--deep`): every id is its
    /// record's hash, every signature one of that id, every tree listed, and the graph
    /// their parents make (``VersionGraphCheck``). A format-1 bundle is also one line of
    /// versions whose records hold their own numbers.
    package mutating func checkVersions() {
        var graph = VersionGraphCheck()
        var previous: BundleVersion?
        for version in manifest.versions {
            if version.computeID() != version.id {
                report(
                    "version.id-mismatch", "the id does not match the version's record (it was altered after saving)",
                    version: version.number)
            }
            checkSignature(version.signature, ofVersion: version.id, number: version.number)
            graph.add(
                id: version.id, number: version.number, parents: version.parents, recordFormat: version.recordFormat)
            if manifest.formatVersion == 1 { checkFormatOne(version, after: previous) }
            if manifest.objects[version.tree] == nil {
                report(
                    "tree.missing", "its tree object \(version.tree.short) is not listed in the manifest",
                    version: version.number)
            }
            previous = version
        }
        report(graph, pruned: Set(manifest.pruned), head: manifest.head)
    }

    /// Reports what a version graph check found, once it has every version.
    mutating func report(_ graph: VersionGraphCheck, pruned: Set<VersionID>, head: VersionID) {
        var graph = graph
        graph.finish(pruned: pruned, head: head)
        for finding in graph.findings {
            report(finding.code, finding.message, version: finding.version)
        }
    }

    /// Reports a signature that is not one of the version's id by the key it names.
    mutating func checkSignature(_ signature: VersionSignature?, ofVersion id: VersionID, number: Int) {
        if let signature, signature.signer(ofVersion: id) == nil { reportInvalidSignature(version: number) }
    }

    /// Reports the signature of the version at `version` as not one of its id.
    mutating func reportInvalidSignature(version: Int) {
        report(
            "version.signature-invalid",
            "its signature is not a signature of its id by the key it names (the record or the signature was altered)",
            version: version)
    }

    /// A format-1 bundle: every record is a format-1 record holding its number, and each
    /// version's parent is the one before it.
    private mutating func checkFormatOne(_ version: BundleVersion, after previous: BundleVersion?) {
        guard let recorded = version.numberInID else {
            report(
                "version.record-format", "a format-1 bundle holds a record without a number (format 2)",
                version: version.number)
            return
        }
        if recorded != version.number {
            report(
                "version.order",
                """
                its record says version \(recorded), but it is version \(version.number) of the history (a version \
                was added, removed or moved)
                """,
                version: version.number)
        }
        if let previous, version.parents != [previous.id] {
            report(
                "version.chain-broken", "its parent should be version \(previous.number) (\(previous.shortID))",
                version: version.number)
        }
    }
}
