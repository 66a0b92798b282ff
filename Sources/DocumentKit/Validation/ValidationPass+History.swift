import DocumentKitCore
import Foundation

extension ValidationPass {
    /// What the deep check of old documents knows before it reads them: each version's
    /// document, and which versions' checks are done. Every old version's document must be
    /// readable and hold the blobs it refers to, and every version's recorded `changes`
    /// must be what its document and its first parent's give
    /// (``checkRecordedChanges(of:tree:document:parentTree:parentDocument:)``).
    ///
    /// The documents are read as `checkDeltas` decodes them, each once, in the order of the
    /// versions' places, so that a version's document comes right after its parent's: a
    /// history of 100,000 versions costs 100,000 delta applications, and holds two
    /// documents besides the delta bases. What that order does not pair (a merge's first
    /// parent far back, a document stored whole and the base of nothing) is checked after,
    /// each rebuilt from its chain.
    ///
    /// Old documents are not decoded against the schema again: their bytes are proven, by
    /// their digests, to be the ones that were checked when they were saved, and decoding
    /// 1,000 documents of 5 MB would take minutes. A document that does not parse as JSON
    /// is still reported, with every path at fault.
    struct OldDocuments {
        /// The versions, in the manifest's order, with their documents' digests.
        let versions: [BundleVersion]
        let documents: [ObjectDigest?]
        /// By document digest: the versions holding it, and those whose first parent does.
        let holding: [ObjectDigest: [Int]]
        let childrenOf: [ObjectDigest: [Int]]
        let indexByID: [VersionID: Int]
        var blobsChecked: Set<Int> = []
        var changesChecked: Set<Int> = []
        /// The document read last, by digest, checked as JSON (`nil` when it is not).
        var previous: (digest: ObjectDigest, text: CheckedJSONText?)?
        /// Findings by version, reported newest version first, as the check reads them.
        var findings: [Int: [ValidationFinding]] = [:]
        let headID: VersionID

        init(bundle: DocumentBundle, manifest: BundleManifest) {
            let versions = manifest.versions
            let indexByID = Dictionary(
                versions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            let documents = versions.map { version in
                (try? bundle.treeObject(version.tree))?.entries.first {
                    $0.name == VersionLayout.documentName && $0.kind == .file
                }?.digest
            }
            var holding: [ObjectDigest: [Int]] = [:]
            var childrenOf: [ObjectDigest: [Int]] = [:]
            for (index, version) in versions.enumerated() {
                guard let document = documents[index] else { continue }
                holding[document, default: []].append(index)
                if version.changes != nil, let parent = version.parents.first.flatMap({ indexByID[$0] }),
                    let parentDocument = documents[parent]
                {
                    childrenOf[parentDocument, default: []].append(index)
                }
            }
            self.versions = versions
            self.indexByID = indexByID
            self.documents = documents
            self.holding = holding
            self.childrenOf = childrenOf
            headID = manifest.head
        }

        /// Where a document comes in the walk: its first version's place.
        func order(of digest: ObjectDigest) -> Int { holding[digest]?.first.map { versions[$0].number } ?? 0 }
    }

    /// Checks what `data`, the document `digest` as the delta walk decoded it, allows: the
    /// blobs of each version holding it, and the changes of each version whose document
    /// and first parent's are it and the one read before it.
    mutating func checkOldDocument(_ digest: ObjectDigest, _ data: Data, _ old: inout OldDocuments) {
        guard old.holding[digest] != nil || old.childrenOf[digest] != nil else { return }
        let previous = old.previous
        // Checked as JSON once, for the diffs with its parent's and its child's document.
        let text = try? CheckedJSONText(data)
        old.previous = (digest, text)
        for index in old.holding[digest] ?? [] {
            checkBlobs(ofVersion: index, in: data, &old)
            guard let parentID = old.versions[index].parents.first, let parent = old.indexByID[parentID],
                let parentDocument = old.documents[parent]
            else { continue }
            if parentDocument == digest {
                checkChanges(ofVersion: index, document: text, parentDocument: text, &old)
            } else if let previous, previous.digest == parentDocument {
                checkChanges(ofVersion: index, document: text, parentDocument: previous.text, &old)
            }
        }
        // A format-2 history is walked newest first: the version read before is the child.
        guard let previous else { return }
        for index in old.childrenOf[digest] ?? [] where old.documents[index] == previous.digest {
            checkChanges(ofVersion: index, document: previous.text, parentDocument: text, &old)
        }
    }

    /// Checks the old documents the delta walk did not read or pair, each read again,
    /// newest first; then reports every old document's findings, newest version first.
    mutating func finishOldDocuments(_ old: inout OldDocuments) {
        var documents = RecentDocuments(bundle: bundle)
        for index in old.versions.indices.reversed() {
            let isHead = old.versions[index].id == old.headID
            let blobsDone = isHead || old.blobsChecked.contains(index)
            let changesDone = old.versions[index].changes == nil || old.changesChecked.contains(index)
            if blobsDone, changesDone { continue }
            let version = old.versions[index]
            guard let digest = old.documents[index] else {
                if !isHead {
                    old.findings[version.number, default: []].append(
                        ValidationFinding(
                            "document.unreadable", .error, "the version's document.json cannot be read",
                            version: version.number))
                }
                continue
            }
            let data: Data
            do {
                data = try documents.document(digest)
            } catch {
                if !isHead {
                    old.findings[version.number, default: []].append(
                        ValidationFinding(
                            "document.unreadable", .error,
                            """
                            the version's document.json cannot be read: \
                            \(error.failureMessage)
                            """,
                            version: version.number))
                }
                continue
            }
            if !blobsDone { checkBlobs(ofVersion: index, in: data, &old) }
            guard !changesDone else { continue }
            let parent = version.parents.first.flatMap { old.indexByID[$0] }
            let parentDocument = parent.flatMap { old.documents[$0] }.flatMap { try? documents.document($0) }
            checkChanges(
                ofVersion: index, document: try? CheckedJSONText(data),
                parentDocument: parentDocument.flatMap { try? CheckedJSONText($0) }, &old)
        }
        for number in old.findings.keys.sorted(by: >) { findings += old.findings[number]! }
        old.findings = [:]
    }

    private mutating func checkBlobs(ofVersion index: Int, in data: Data, _ old: inout OldDocuments) {
        guard old.blobsChecked.insert(index).inserted, old.versions[index].id != old.headID else { return }
        let version = old.versions[index]
        let found = reportedApart { pass in
            // The head's document and blobs are checkHeadDocument's.
            guard let tree = try? pass.bundle.tree(of: version) else { return }
            pass.checkBlobReferences(in: data, version: version, tree: tree)
        }
        if !found.isEmpty { old.findings[version.number, default: []] += found }
    }

    /// Checks a version's changes against its document and its first parent's; `nil` for
    /// the parent's when it cannot be read (pruned), and then they are not checked.
    private mutating func checkChanges(
        ofVersion index: Int, document: CheckedJSONText?, parentDocument: CheckedJSONText?,
        _ old: inout OldDocuments
    ) {
        guard old.changesChecked.insert(index).inserted else { return }
        let version = old.versions[index]
        let parentTree = version.parents.first.flatMap { old.indexByID[$0] }.flatMap {
            try? bundle.tree(of: old.versions[$0])
        }
        let found = reportedApart { pass in
            guard let tree = try? pass.bundle.tree(of: version) else { return }
            pass.checkRecordedChanges(
                of: version, tree: tree, document: document, parentTree: parentTree, parentDocument: parentDocument)
        }
        if !found.isEmpty { old.findings[version.number, default: []] += found }
    }

    /// Reports blob references of `data` that `tree` does not hold; the document is
    /// scanned for `"$blob"` members rather than parsed, and parsed only to name paths.
    private mutating func checkBlobReferences(in data: Data, version: BundleVersion, tree: FileWrapper) {
        let blobs = tree[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        let objects = manifest.objects
        let held = { (hex: String) -> Bool in
            guard let digest = ObjectDigest(hex: hex) else { return false }
            return blobs[digest.hex] != nil && objects[digest] != nil
        }
        if let scanned = BlobReferenceScan.digests(in: data), scanned.allSatisfy(held) { return }
        do {
            for reference in try JSONValue.parse(data).blobReferences() where !held(reference.digest) {
                report(
                    "blob.unresolved", "refers to blob \(reference.digest.prefix(12)), which the version does not hold",
                    version: version.number, path: reference.path.description)
            }
        } catch {
            report(
                "document.invalid-json", error.failureMessage, version: version.number)
        }
    }
}
