import Foundation

extension ValidationPass {
    /// How many bytes of decoded objects the deep check of delta chains holds at once;
    /// past it, an object is rebuilt from its chain alone (slower, same verdict).
    package static let deltaCheckMemory = 48 << 20

    /// Checks delta objects: each names a listed base and its chain ends in an object
    /// stored whole (no loops). With `deep`, decodes every delta once, level by level from
    /// the whole objects up, checking each against its digest, so a chain of 1,000 links
    /// costs 1,000 decodes, not half a million.
    package mutating func checkDeltas() {
        var dependents: [ObjectDigest: [ObjectDigest]] = [:]
        for (digest, record) in manifest.objects where record.codec == .delta || record.base != nil {
            guard record.codec == .delta, let base = record.base else {
                report("object.delta-invalid", record.codec == .delta ? "a delta object names no base" : "only delta objects name a base", entry: digest.entryName)
                continue
            }
            guard manifest.objects[base] != nil else {
                report("object.delta-base-missing", "its delta base \(base.short) is not in the bundle", entry: digest.entryName)
                continue
            }
            dependents[base, default: []].append(digest)
        }
        guard !dependents.isEmpty else { return }
        // Walk up from the objects stored whole; a delta never reached is in a loop (or
        // hangs from one).
        var reached = Set<ObjectDigest>()
        var level: [ObjectDigest: Data?] = [:]
        for base in dependents.keys.sorted() where manifest.objects[base]?.codec != .delta {
            level[base] = deep ? decodeForChain(base, base: nil) : Data?.none
        }
        while !level.isEmpty {
            var next: [ObjectDigest: Data?] = [:]
            var held = 0
            for (base, data) in level.sorted(by: { $0.key < $1.key }) {
                for digest in (dependents[base] ?? []).sorted() where reached.insert(digest).inserted {
                    guard deep else { next[digest] = Data?.none; continue }
                    // A base that failed to decode makes its dependents unreadable too.
                    guard let data else {
                        report("object.unreadable", "its delta base \(base.short) cannot be decoded", entry: digest.entryName)
                        next[digest] = Data?.none
                        continue
                    }
                    let decoded = decodeForChain(digest, base: data)
                    if let decoded, held + decoded.count <= Self.deltaCheckMemory {
                        held += decoded.count
                        next[digest] = decoded
                    } else if decoded != nil {
                        next[digest] = Data?.none
                        checkLater(digest, dependents: dependents, reached: &reached)
                    } else {
                        next[digest] = Data?.none
                    }
                }
            }
            level = next
        }
        for (digest, record) in manifest.objects.sorted(by: { $0.key < $1.key })
        where record.codec == .delta && record.base.map({ manifest.objects[$0] != nil }) == true && !reached.contains(digest) {
            report("object.delta-loop", "its chain of delta bases loops and never reaches an object stored whole", entry: digest.entryName)
        }
    }

    /// Decodes `digest` given its base's bytes and checks it, reporting what is wrong.
    private mutating func decodeForChain(_ digest: ObjectDigest, base: Data?) -> Data? {
        do {
            return try bundle.validateObject(digest, base: base)
        } catch {
            reportUnreadableObject(error, entry: digest.entryName)
        }
        return nil
    }

    /// Checks the objects that hang from `digest` one by one, each rebuilt from its whole
    /// chain: the fallback when holding more decoded objects would pass the memory budget.
    private mutating func checkLater(_ digest: ObjectDigest, dependents: [ObjectDigest: [ObjectDigest]], reached: inout Set<ObjectDigest>) {
        var pending = dependents[digest] ?? []
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            do {
                _ = try bundle.objectData(next)
            } catch {
                reportUnreadableObject(error, entry: next.entryName)
            }
            pending += dependents[next] ?? []
        }
    }
}
