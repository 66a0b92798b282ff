import Foundation

/// What a pull checks of the other copy before anything is taken from it: only what it
/// brings in, never the whole other copy (whose other versions and objects this copy
/// already holds, checked when they came). Every version brought in must have the id its
/// record hashes to, and a signature, when it has one, that holds; every object brought
/// in must be stored, and decode to the bytes its digest and size name.
enum PullIncomingCheck {
    /// Refuses (`malformedInput`, naming the other copy) the first version or object of
    /// `versions` and `objects` that does not check.
    ///
    /// A delta brought in whose base is the document of this copy's head (the new
    /// document of a pull that fast-forwards, 15 times in 16: FORMAT.md §12.3) is decoded
    /// from `ours`' `document.json`, not from its chain in the other copy.
    static func check(
        _ versions: [BundleVersion], objects: [ObjectDigest], of theirs: DocumentBundle, into ours: DocumentBundle
    ) throws {
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
        var held: HeldObject?
        for digest in objects {
            guard let record = try theirs.objectRecord(digest) else {
                throw refusal(of: theirs, "a version it brings names object \(digest.short), which neither copy holds")
            }
            // Read outside the refusal below: damage here is this copy's, not the other's.
            if record.codec == .delta, record.base == ourDocument, held == nil { held = try ours.heldHeadDocument() }
            var size: UInt64 = 0
            do {
                if record.codec == .delta, let held, record.base == held.digest {
                    size = UInt64(try theirs.objectData(digest, reaching: held).count)
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
    }

    private static func refusal(of theirs: DocumentBundle, _ problem: String) -> DocumentKitError {
        DocumentKitError(
            .malformedInput, "cannot be pulled from: \(problem); nothing was pulled", path: theirs.url.relativePath,
            remedy: .validateFully)
    }
}
