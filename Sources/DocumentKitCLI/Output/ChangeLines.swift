import DocumentKit

/// How `diff` and `show` print what changed: a `---` and a `+++` line naming the two
/// sides, then a line for each change of the document and for each blob.
enum ChangeLines {
    /// The lines, `old` and `new` naming the sides (see ``side(_:in:)``).
    static func lines(from old: String, to new: String, changes: [JSONChange], blobs: [BlobChange]) -> [String] {
        var lines = ["--- \(old)", "+++ \(new)"]
        for change in changes {
            let before = change.old.map { $0.jsonText(pretty: false) } ?? ""
            let after = change.new.map { $0.jsonText(pretty: false) } ?? ""
            switch change.kind {
            case .added: lines.append("+ \(change.path): \(after)")
            case .removed: lines.append("- \(change.path): \(before)")
            case .changed: lines.append("~ \(change.path): \(before) -> \(after)")
            case .reordered: lines.append("* \(change.path): reordered")
            }
        }
        for blob in blobs {
            lines.append(
                "\(blob.kind == .added ? "+" : "-") blob \(blob.digest.prefix(12)) (\(ByteCount.readable(blob.size)))")
        }
        return lines
    }

    /// `version 3 (abcdef123456) 2026-01-01T00:00:00Z Set name`, after `garden.dkproj: `
    /// when the diff compares two bundles: the message's first line, so that the side
    /// stays one line.
    static func side(_ version: VersionSummary, in bundle: String? = nil) -> String {
        let subject = version.message.prefix { $0 != "\n" }
        return "\(bundle.map { "\($0): " } ?? "")\(Console.version(version)) \(version.created) \(subject)"
    }
}
