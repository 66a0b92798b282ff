import DocumentKitArchive
import Foundation

extension ValidationPass {
    /// How many bytes of decoded objects the deep check of delta chains holds at once;
    /// past it, an object's dependents are rebuilt from their chains alone (slower, same
    /// verdict).
    package static let deltaCheckMemory = 48 << 20

    /// Checks delta objects: each names a listed base and its chain ends in an object
    /// stored whole (no loops). With `deep`, decodes every delta once and checks it against
    /// its digest, walking the forest of delta bases depth first from the objects stored
    /// whole, and hands each decoded object to `visit` (the old documents' checks read
    /// them there).
    ///
    /// Depth first, a base is held only while it has dependents left to decode: a format-2
    /// chain of 1,000 reverse deltas holds one document at a time, and a format-3 history,
    /// whose chains are as deep as its places have base-16 digits (FORMAT.md §12.3),
    /// holds at most one document per digit, 6 at 100,000 versions. Children are taken in
    /// the order `order` gives (the versions' places), so that a version's document comes
    /// right after its parent's.
    package mutating func checkDeltas(
        order: (ObjectDigest) -> Int = { _ in 0 },
        visit: (inout ValidationPass, ObjectDigest, Data) -> Void = { _, _, _ in }
    ) {
        var dependents: [ObjectDigest: [ObjectDigest]] = [:]
        for (digest, record) in manifest.objects where record.codec == .delta || record.base != nil {
            guard record.codec == .delta, let base = record.base else {
                report(
                    "object.delta-invalid",
                    record.codec == .delta ? "a delta object names no base" : "only delta objects name a base",
                    entry: digest.entryName)
                continue
            }
            guard manifest.objects[base] != nil else {
                report(
                    "object.delta-base-missing", "its delta base \(base.short) is not in the bundle",
                    entry: digest.entryName)
                continue
            }
            dependents[base, default: []].append(digest)
        }
        guard !dependents.isEmpty else { return }
        for (base, children) in dependents { dependents[base] = children.sorted { (order($0), $0) < (order($1), $1) } }
        // Walk down from the objects stored whole; a delta never reached is in a loop (or
        // hangs from one).
        var reached = Set<ObjectDigest>()
        for root in dependents.keys.sorted() where manifest.objects[root]?.codec != .delta {
            if deep {
                walkDecoding(from: root, dependents: dependents, reached: &reached, visit: visit)
            } else {
                var pending = [root]
                while let next = pending.popLast() {
                    for child in dependents[next] ?? [] where reached.insert(child).inserted { pending.append(child) }
                }
            }
        }
        for (digest, record) in manifest.objects.sorted(by: { $0.key < $1.key })
        where record.codec == .delta && record.base.map({ manifest.objects[$0] != nil }) == true
            && !reached.contains(digest)
        {
            report(
                "object.delta-loop", "its chain of delta bases loops and never reaches an object stored whole",
                entry: digest.entryName)
        }
    }

    /// A base being walked: its bytes (`nil` when they failed to decode), and which of its
    /// dependents come next. Only the base on top of the walk's stack is used; those below
    /// it wait, zstd-compressed (``pack()``), until their turn comes again.
    private struct HeldBase {
        let digest: ObjectDigest
        private(set) var data: Data?
        let children: [ObjectDigest]
        var next = 0
        private var packed: (bytes: Data, size: Int)?

        init(digest: ObjectDigest, data: Data?, children: [ObjectDigest]) {
            self.digest = digest
            self.data = data
            self.children = children
        }

        /// The bytes it holds now: its data's, or their compressed form's.
        var heldBytes: Int { packed?.bytes.count ?? data?.count ?? 0 }

        /// Compresses its bytes while the walk goes down another path. A 7.4 MB document
        /// packs to about 1 MB at level 1 in a few milliseconds, where a walk of 1,000
        /// versions took a minute: so the memory of a walk is two documents and a
        /// megabyte a level, not a document a level (96 MB at 1,000 versions).
        mutating func pack() {
            guard let data, packed == nil, let compressed = try? ZstdCodec.compress(data, level: 1) else { return }
            // Copied to its size: the compressor reserved a third of the input for it.
            packed = (compressed.withUnsafeBytes { Data($0) }, data.count)
            self.data = nil
        }

        /// The size is the one it was packed from: no ratio applies (a document of
        /// repeated text packs past 1,000:1).
        private static let unpackingLimits = ArchiveLimits(maxExpansionRatio: .max)

        /// Its bytes back, on its turn.
        mutating func unpack() throws {
            guard let packed else { return }
            data = try ZstdCodec.decompress(packed.bytes, expectedSize: packed.size, limits: Self.unpackingLimits)
            self.packed = nil
        }
    }

    /// Decodes every object hanging from `root` once, depth first, each from its base's
    /// bytes, releasing a base as its last dependent is taken.
    private mutating func walkDecoding(
        from root: ObjectDigest, dependents: [ObjectDigest: [ObjectDigest]],
        reached: inout Set<ObjectDigest>, visit: (inout ValidationPass, ObjectDigest, Data) -> Void
    ) {
        var stack: [HeldBase] = []
        do {
            // Scoped, so that the stack alone holds it, and its packing frees it.
            let rootData = decodeForChain(root, base: nil)
            if let rootData { visit(&self, root, rootData) }
            stack.append(HeldBase(digest: root, data: rootData, children: dependents[root] ?? []))
        }
        var held: Int { stack.reduce(0) { $0 + $1.heldBytes } }
        while !stack.isEmpty {
            guard stack[stack.count - 1].next < stack[stack.count - 1].children.count else {
                stack.removeLast()
                continue
            }
            unpackTop(&stack)
            let top = stack[stack.count - 1]
            let child = top.children[top.next]
            stack[stack.count - 1].next += 1
            guard reached.insert(child).inserted else { continue }
            // The base's last dependent: let go of the base before decoding it.
            if top.next + 1 == top.children.count { stack.removeLast() }
            let children = dependents[child] ?? []
            guard let base = top.data else {
                // A base that failed to decode makes its dependents unreadable too.
                report(
                    "object.unreadable", "its delta base \(top.digest.short) cannot be decoded", entry: child.entryName)
                if !children.isEmpty { stack.append(HeldBase(digest: child, data: nil, children: children)) }
                continue
            }
            let decoded = decodeForChain(child, base: base)
            if let decoded { visit(&self, child, decoded) }
            guard !children.isEmpty else { continue }
            if let decoded, held + decoded.count > Self.deltaCheckMemory {
                checkLater(child, dependents: dependents, reached: &reached, visit: visit)
                continue
            }
            // Going down: the base left behind waits compressed.
            if !stack.isEmpty { stack[stack.count - 1].pack() }
            stack.append(HeldBase(digest: child, data: decoded, children: children))
        }
    }

    /// Decompresses the base now on top of the walk's stack when it waited compressed; one
    /// that cannot be (bytes the check itself made) is its dependents' unreadable base.
    private mutating func unpackTop(_ stack: inout [HeldBase]) {
        do {
            try stack[stack.count - 1].unpack()
        } catch {
            let top = stack.removeLast()
            stack.append(HeldBase(digest: top.digest, data: nil, children: Array(top.children[top.next...])))
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
    private mutating func checkLater(
        _ digest: ObjectDigest, dependents: [ObjectDigest: [ObjectDigest]], reached: inout Set<ObjectDigest>,
        visit: (inout ValidationPass, ObjectDigest, Data) -> Void
    ) {
        var pending = Array((dependents[digest] ?? []).reversed())
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            do {
                visit(&self, next, try bundle.objectData(next))
            } catch {
                reportUnreadableObject(error, entry: next.entryName)
            }
            pending += (dependents[next] ?? []).reversed()
        }
    }
}
