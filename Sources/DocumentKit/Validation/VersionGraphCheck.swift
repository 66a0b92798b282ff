import DocumentKitBundle
import Foundation

/// The checks of a history's version graph (FORMAT.md §5), made one version at a time,
/// oldest first: every parent comes before its child or was pruned, so the graph has no
/// cycle and nothing dangles; one history (a single version without parents, the first);
/// no id twice; a format-1 record never follows a format-2 one; the head last.
///
/// A format-3 history is checked so as its segments are read, never listed whole; the
/// older formats' manifests are walked through the same check. What needs the versions
/// after a version (a parent that comes later, or never) is settled by ``finish(pruned:head:)``.
struct VersionGraphCheck {
    /// A finding about the version at place `version`.
    struct Finding {
        var code: String
        var message: String
        var version: Int
    }

    private(set) var findings: [Finding] = []
    /// How many versions were added.
    private(set) var count = 0
    private var seen = SeenIDs()

    /// A check of a history of about `versions` versions (room is made for them at once:
    /// growing a set of 100,000 holds two copies while it grows).
    init(versions: Int = 0) {
        seen.reserve(versions)
    }
    /// The ids of format-1 records, which only the oldest histories hold.
    private var formatOneIDs = Set<VersionID>()
    /// Parents not met before a child named them, with the places of those children.
    private var awaited: [VersionID: [Int]] = [:]
    /// The place of each awaited parent met after a child named it.
    private var metLate: [VersionID: Int] = [:]
    private var last: (id: VersionID, number: Int)?

    /// Adds the next version, at place `number`.
    mutating func add(id: VersionID, number: Int, parents: [VersionID], recordFormat: Int) {
        if seen.contains(id) {
            report("version.duplicate-id", "two versions have the id \(id.prefix(12))", number)
        }
        if Set(parents).count != parents.count {
            report("version.parents", "names the same parent twice", number)
        }
        if parents.count > 2 || (recordFormat == 1 && parents.count > 1) {
            report(
                "version.parents",
                """
                names \(parents.count) parents; a version has at most \
                \(recordFormat == 1 ? "one (format-1 record)" : "two (a merge)")
                """,
                number)
        }
        // The first version may be held beside pruned ids: a pull lists the parents the
        // other copy pruned (FORMAT.md §5.3) while this copy still holds its first version.
        if parents.isEmpty, count > 0 {
            report(
                "version.second-root", "has no parent but is not the first version: a bundle holds one history", number)
        }
        for parent in parents where !seen.contains(parent) {
            awaited[parent, default: []].append(number)
        }
        // Format 1 was only ever written before format 2 (§5.1): a format-1 record made
        // from a format-2 one was written by no DocumentKit, and its number would claim a
        // place in a line of versions that had already ended.
        if recordFormat == 1, let parent = parents.first(where: { seen.contains($0) && !formatOneIDs.contains($0) }) {
            report(
                "version.record-format",
                """
                is a format-1 record whose parent \(parent.prefix(12)) is a format-2 record; format-1 records come \
                only before format-2 ones
                """,
                number)
        }
        if recordFormat == 1 { formatOneIDs.insert(id) }
        if awaited[id] != nil, metLate[id] == nil { metLate[id] = number }
        seen.insert(id)
        count += 1
        last = (id, number)
    }

    /// Settles the parents not met in order, and checks that the last version is `head`.
    mutating func finish(pruned: Set<VersionID>, head: VersionID) {
        var late: [Finding] = []
        for (parent, children) in awaited where !pruned.contains(parent) {
            for child in children {
                if let number = metLate[parent] {
                    late.append(
                        Finding(
                            code: "version.parent-order",
                            message:
                                """
                                names version \(number) (\(parent.prefix(12))) as its parent, which comes after \
                                it: a version must follow its parents, so parents cannot form a cycle
                                """,
                            version: child))
                } else {
                    late.append(
                        Finding(
                            code: "version.parent-missing",
                            message:
                                """
                                names a parent (\(parent.prefix(12))) that is neither in the bundle nor recorded \
                                as pruned
                                """,
                            version: child))
                }
            }
        }
        findings += late.sorted { ($0.version, $0.message) < ($1.version, $1.message) }
        if let last, last.id != head {
            report("manifest.head-not-latest", "the head is not the newest version", last.number)
        }
        awaited = [:]
        metLate = [:]
        seen = SeenIDs()
    }

    private mutating func report(_ code: String, _ message: String, _ version: Int) {
        findings.append(Finding(code: code, message: message, version: version))
    }
}

/// The ids met so far: as ``DigestKey``s (16 bytes each, where an id's text is a heap
/// string of 64), but for an id that is not a digest's hex (a damaged manifest's).
private struct SeenIDs {
    private var digests = Set<DigestKey>()
    private var others = Set<VersionID>()

    mutating func reserve(_ count: Int) {
        digests.reserveCapacity(count)
    }

    func contains(_ id: VersionID) -> Bool {
        if let digest = ObjectDigest(hex: id) { digests.contains(DigestKey(digest)) } else { others.contains(id) }
    }

    mutating func insert(_ id: VersionID) {
        if let digest = ObjectDigest(hex: id) { digests.insert(DigestKey(digest)) } else { others.insert(id) }
    }
}
