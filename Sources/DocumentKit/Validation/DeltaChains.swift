import DocumentKitBundle
import DocumentKitCore

/// The quick check of a format-3 history's delta objects, as its items are read: each
/// names a base, and its chain of bases reaches an object stored whole, with no loop
/// (FORMAT.md §12.3). A delta whose base came before it, and reaches a whole object, is
/// settled as it is met (a forward delta always is); only the others (the reverse deltas
/// an upgrade from format 2 copies) are held until every object is known.
struct DeltaChains {
    struct Finding {
        var code: String
        var message: String
        var digest: ObjectDigest
    }

    /// Deltas not settled when met: digest → base.
    private var unsettled: [ObjectDigest: ObjectDigest] = [:]
    private var misnamed: [Finding] = []

    /// Adds the next object, `objects` holding it and every object before it.
    mutating func add(_ digest: ObjectDigest, _ record: ObjectRecord, objects: Set<DigestKey>) {
        guard record.codec == .delta || record.base != nil else {
            // Stored whole: it settles any copy of it met before as a delta.
            unsettled[digest] = nil
            return
        }
        guard record.codec == .delta, let base = record.base else {
            let message = record.codec == .delta ? "a delta object names no base" : "only delta objects name a base"
            return misnamed.append(Finding(code: "object.delta-invalid", message: message, digest: digest))
        }
        if objects.contains(DigestKey(base)), unsettled[base] == nil { return }
        unsettled[digest] = base
    }

    /// What is wrong, once every object was added: a base in no segment, or a chain that
    /// loops (or hangs from one that does, or from a missing base).
    func findings(objects: Set<DigestKey>) -> [Finding] {
        var findings = misnamed
        var settled = Set<ObjectDigest>()
        var broken = Set<ObjectDigest>()
        for start in unsettled.keys.sorted() where !settled.contains(start) && !broken.contains(start) {
            var path: [ObjectDigest] = []
            var onPath = Set<ObjectDigest>()
            var current = start
            var reachesWhole = false
            while true {
                if settled.contains(current) {
                    reachesWhole = true
                    break
                }
                if broken.contains(current) || !onPath.insert(current).inserted { break }
                path.append(current)
                guard let base = unsettled[current] else {
                    reachesWhole = true
                    break
                }
                guard objects.contains(DigestKey(base)) else {
                    findings.append(
                        Finding(
                            code: "object.delta-base-missing",
                            message: "its delta base \(base.short) is not in the bundle", digest: current))
                    path.removeLast()
                    broken.insert(current)
                    break
                }
                current = base
            }
            if reachesWhole {
                settled.formUnion(path)
            } else {
                for digest in path {
                    findings.append(
                        Finding(
                            code: "object.delta-loop",
                            message: "its chain of delta bases loops and never reaches an object stored whole",
                            digest: digest))
                }
                broken.formUnion(path)
            }
        }
        return findings.sorted { ($0.digest, $0.code) < ($1.digest, $1.code) }
    }
}
