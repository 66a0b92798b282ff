import DocumentKitBundle
import Foundation

extension ValidationPass {
    /// Refuses members of a version record that the format does not define, in the record,
    /// its `signature` and its `changes` (FORMAT.md §5, §5.4): neither the id nor a
    /// signature covers them, so a reader that showed one would show bytes nobody vouched
    /// for. Decoding skips unknown members, so the manifest's text is read again here.
    package mutating func checkRecordMembers() {
        // A format-3 history's records are checked as its segments are read (`checkSegments`).
        guard bundle.history == nil,
            let data = try? BundleFile.read(
                BundleEntry.manifest, from: bundle.zip, path: bundle.url.relativePath,
                limit: UInt64(bundle.limits.maxManifestBytes)),
            case .object(let members)? = try? JSONValue.parse(data), case .array(let records)? = members["versions"]
        else { return }
        for (record, version) in zip(records, manifest.versions) {
            checkMembers(ofRecord: record, version: version.number)
        }
    }

    /// Reports the members of one record (as the manifest or a segment holds it) that the
    /// format does not define.
    package mutating func checkMembers(ofRecord record: JSONValue, version: Int) {
        reportUnknownMembers(Self.unknownMembers(ofRecord: record), version: version)
    }

    /// Reports `unknown`, the members of a record the format does not define, when there are any.
    mutating func reportUnknownMembers(_ unknown: [String], version: Int) {
        if !unknown.isEmpty {
            report(
                "version.unknown-member",
                """
                its record has \(unknown.count == 1 ? "a member" : "members") the format does not define \
                (\(unknown.joined(separator: ", "))), which neither its id nor a signature covers
                """,
                version: version)
        }
    }

    /// The members of a record (as the manifest or a segment holds it) that the format does
    /// not define, in the record, its signature and its changes, by their paths.
    static func unknownMembers(ofRecord record: JSONValue) -> [String] {
        var unknown = Self.unknownMembers(of: record, allowed: BundleVersion.memberNames, at: "")
        if case .object(let record) = record {
            if let signature = record["signature"] {
                unknown += Self.unknownMembers(of: signature, allowed: VersionSignature.memberNames, at: "signature.")
            }
            if let changes = record["changes"] {
                unknown += Self.unknownMembers(of: changes, allowed: VersionChanges.memberNames, at: "changes.")
                if case .object(let changes) = changes {
                    for (list, allowed) in [
                        ("paths", VersionChanges.PathChange.memberNames), ("blobs", BlobChange.memberNames)
                    ] {
                        guard case .array(let items)? = changes[list] else { continue }
                        for (index, item) in items.enumerated() {
                            unknown += Self.unknownMembers(of: item, allowed: allowed, at: "changes.\(list)[\(index)].")
                        }
                    }
                }
            }
        }
        return unknown
    }

    /// The names, after `prefix`, of the members of `value` that `allowed` does not hold.
    private static func unknownMembers(of value: JSONValue, allowed: Set<String>, at prefix: String) -> [String] {
        guard case .object(let members) = value else { return [] }
        return members.keys.filter { !allowed.contains($0) }.sorted().map { prefix + $0 }
    }
}
