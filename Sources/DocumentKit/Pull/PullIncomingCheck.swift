import Foundation

/// What a pull checks of the other copy before anything is taken from it: only what it
/// brings in, never the whole other copy (whose other versions and objects this copy
/// already holds, checked when they came). Every version brought in must have the id its
/// record hashes to, and a signature, when it has one, that holds; every object brought
/// in must be stored, and decode to the bytes its digest and size name.
enum PullIncomingCheck {
    /// Refuses (`malformedInput`, naming the other copy) the first version or object of
    /// `versions` and `objects` that does not check. Returns the other copy's head
    /// document when a delta brought in decoded to it (a fast-forward writes it as
    /// `document.json`: it is not read and hashed again).
    ///
    /// A delta brought in is decoded from `ours`' `document.json`, not from its chain in
    /// the other copy, when its base is the document of this copy's head (the new document
    /// of a pull that fast-forwards, 15 times in 16: FORMAT.md §12.3), or is within 15
    /// links of it in this copy (the 16th, a delta against the document 16 places back),
    /// its program moved onto the head's document.
    @discardableResult
    static func check(
        _ versions: [BundleVersion], objects: [ObjectDigest], of theirs: DocumentBundle, into ours: DocumentBundle
    ) throws -> HeldObject? {
        for version in versions {
            guard version.computeID() == version.id else {
                throw refusal(
                    of: theirs, "version \(version.number) (\(version.shortID))'s id is not the SHA-256 of its record")
            }
            // Whether the key is trusted is --require-signed's question; a signature that
            // does not hold is damage either way.
            if version.signature != nil, BundleVerifier.status(of: version, trusted: nil).status != .signed {
                throw refusal(
                    of: theirs,
                    "version \(version.number) (\(version.shortID)) has a signature that does not hold (it was altered)"
                )
            }
        }
        let ourDocument = try ours.documentDigest(of: ours.headVersion)
        let theirDocument = try theirs.documentDigest(of: theirs.headVersion)
        var held: HeldObject?
        var theirHead: HeldObject?
        for digest in objects {
            guard let record = try theirs.objectRecord(digest) else {
                throw refusal(of: theirs, "a version it brings names object \(digest.short), which neither copy holds")
            }
            // Read outside the refusal below: damage here is this copy's, not the other's.
            var forward: [DeltaInstructions]?
            if record.codec == .delta, let base = record.base {
                if base != ourDocument { forward = try ours.deltaChain(from: ourDocument, to: base, limit: 15) }
                if base == ourDocument || forward != nil, held == nil { held = try ours.heldHeadDocument() }
            }
            var size: UInt64 = 0
            do {
                var decoded: Data?
                if let held, record.codec == .delta {
                    decoded =
                        if record.base == held.digest {
                            try theirs.objectData(digest, reaching: held)
                        } else if let forward {
                            try theirs.objectData(digest, rebasedOnto: held, through: forward)
                        } else {
                            nil
                        }
                }
                if let decoded {
                    size = UInt64(decoded.count)
                    if digest == theirDocument { theirHead = HeldObject(digest: digest, data: decoded) }
                } else {
                    // Throws at the end when the bytes are not the digest's.
                    try theirs.streamObject(digest) { size += UInt64($0.count) }
                }
            } catch let error as DocumentKitError {
                throw refusal(of: theirs, "object \(digest.short): \(error.message)")
            } catch let error as ArchiveError {
                throw refusal(of: theirs, "object \(digest.short): \(DocumentKitError(error).message)")
            }
            guard size == record.size else {
                throw refusal(
                    of: theirs, "object \(digest.short) decodes to \(size) bytes, its manifest says \(record.size)")
            }
        }
        return theirHead
    }

    private static func refusal(of theirs: DocumentBundle, _ problem: String) -> DocumentKitError {
        DocumentKitError(
            .malformedInput, "cannot be pulled from: \(problem); nothing was pulled", path: theirs.url.relativePath,
            remedy: .validateFully)
    }
}
