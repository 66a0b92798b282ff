import Foundation

/// An edit made to the head's text instead of to the whole document: the record (or
/// top-level field) it changes is decoded, changed, checked and encoded alone, and its
/// canonical text takes the place of the old one. A one-field change of a document of
/// 20,000 tasks then costs one task and a copy of the bytes around it (DESIGN.md, "Edits
/// cost what they change").
///
/// It makes the edits of one record (changed, appended or removed) and of one field that
/// is no collection. When the edit moves a relationship, the rules run over the records
/// as the head holds them (`RecordTable`), and the records they change are spliced too.
/// Anything else (replacing a whole collection, a head that needs migrating), and
/// anything that breaks a rule, gives `nil`, and the caller applies the edit to the whole
/// document, which produces the same bundle or the same error.
package struct RecordSplice<Document: CodableDocument> {
    /// The document's new text, what changed in it, and its blobs when the edit changed
    /// which it refers to.
    package struct Result {
        package var text: Data
        /// The changes from the head's text to `text`, as `JSONValue.changes(from:to:)`
        /// finds them, found from the record or fields that changed alone.
        package var changes: JSONChangeList
        /// Every blob the new text refers to, when that differs from the head's; `nil`
        /// when the edit added and removed no reference.
        package var blobs: Set<ObjectDigest>?
    }

    package let edit: DocumentEdit
    package let context: DocumentDecodingContext
    package let pending: PendingObjects

    /// The head's text `head` with the edit spliced in, or `nil` when this edit must be
    /// applied to the whole document.
    package func apply(to head: Data) -> Result? {
        guard case .key(let key)? = edit.path.components.first else { return nil }
        return head.withUnsafeBytes { text -> Result? in
            // The scans below trust the text's grammar, so it is checked first, as parsing
            // would; the same pass finds the members and the collections' records.
            var checker = JSONWalker<JSONChecker>(bytes: text, depthLimit: JSONDepth.defaultLimit)
            guard
                let (root, outline) = try? checker.checkDocument(outlining: Set(Document.recordCollections.map(\.key))),
                text[root.lowerBound] == UInt8(ascii: "{")
            else { return nil }
            let splicer = Splicer(text: text, members: outline.members)
            if let collection = Document.recordCollections.first(where: { $0.key == key }) {
                return spliceRecord(of: collection, splicer, table: RecordTable(text: text, outline: outline))
            }
            return spliceField(splicer)
        }
    }

    // MARK: A top-level field

    /// A change of a field that is no collection: the document's fields (its records
    /// left out) are decoded, changed, checked and encoded as the document itself.
    package func spliceField(_ splicer: Splicer) -> Result? {
        let collections = Set(Document.recordCollections.map(\.key))
        var fields: [String: JSONValue] = [:]
        for member in splicer.members where !collections.contains(member.key) {
            guard let value = try? JSONValue.parse(Data(splicer.bytes(member.value))) else { return nil }
            fields[member.key] = value
        }
        let old = JSONValue.object(fields)
        var new = old
        guard (try? edit.apply(to: &new)) != nil, refersToKnownBlobs(new),
            let document = try? Document.decodeSchema(new.encoded(pretty: false), context: context),
            (try? document.validate()) != nil,
            let encoded = try? CanonicalJSONEncoder().encode(document, terminated: true)
        else { return nil }
        return encoded.withUnsafeBytes { fieldsText -> Result? in
            guard let root = fieldsText.firstIndex(of: UInt8(ascii: "{")) else { return nil }
            var scanner = JSONTextScanner(text: fieldsText, after: root)
            var replaced: [String: [Splicer.Piece]] = [:]
            var encodedKeys = Set<String>()
            while let member = try? scanner.nextMember() {
                encodedKeys.insert(member.key)
                // A collection keeps the head's records; it is written here only when the
                // head has none and the type writes it even empty (`"tasks" : []`).
                if collections.contains(member.key), splicer.members.contains(where: { $0.key == member.key }) {
                    continue
                }
                replaced[member.key] = [.bytes(Array(UnsafeRawBufferPointer(rebasing: fieldsText[member.value])))]
            }
            let removed = splicer.members.map(\.key).filter { !collections.contains($0) && !encodedKeys.contains($0) }
            // The collections the head has are the same before and after: one placeholder
            // stands for each on both sides, so the diff sees the members in their order.
            var before = fields
            var after: [String: JSONValue] = [:]
            for member in splicer.members where collections.contains(member.key) {
                before[member.key] = .null
                after[member.key] = .null
            }
            for (key, pieces) in replaced {
                guard case .bytes(let bytes)? = pieces.first, let value = try? JSONValue.parse(Data(bytes)) else {
                    return nil
                }
                after[key] = value
            }
            var changes = JSONChangeList(limit: VersionChanges.limit)
            JSONDiff.collect(from: JSONValue.object(before), to: JSONValue.object(after), into: &changes)
            return result(
                splicer.document(replacing: replaced, removing: Set(removed)), changes: changes,
                blobsChanged: !old.blobReferences().isEmpty || !new.blobReferences().isEmpty)
        }
    }

    // MARK: Blobs

    package func refersToKnownBlobs(_ value: JSONValue) -> Bool {
        value.blobReferences().allSatisfy { reference in
            ObjectDigest(hex: reference.digest).map(pending.contains) ?? false
        }
    }

    /// The new text, with the blobs it refers to when the edit may have changed them.
    package func result(_ text: Data, changes: JSONChangeList, blobsChanged: Bool) -> Result? {
        guard blobsChanged else { return Result(text: text, changes: changes, blobs: nil) }
        guard let digests = BlobReferenceScan.digests(in: text) else { return nil }
        var blobs = Set<ObjectDigest>()
        for hex in digests {
            guard let digest = ObjectDigest(hex: hex) else { return nil }
            blobs.insert(digest)
        }
        return Result(text: text, changes: changes, blobs: blobs)
    }
}

extension BundleEdits {
    /// What `edit` saves, made by splicing (`RecordSplice`), or `nil` when the edit must
    /// be applied to the whole document: the head written with an older schema (it needs
    /// migrating), an older schema being written, or an edit splicing cannot vouch for.
    package static func splicedContent<T: CodableDocument>(
        _ type: T.Type, _ edit: DocumentEdit, bundle: DocumentBundle, pending: PendingObjects,
        seed: String, created: Date
    ) throws -> SaveContent? {
        guard try DocumentKitConfiguration.current.writeSchemaOverride(for: T.self) == nil,
            bundle.headVersion.schema == T.schemaVersion.description
        else { return nil }
        let context = DocumentDecodingContext(now: created, seed: seed, objectSource: pending)
        let (head, headCheck) = try bundle.headDocumentCheckedInBackground()
        let spliced = RecordSplice<T>(edit: edit, context: context, pending: pending).apply(to: head)
        // Nothing made of the head counts until it is known to be the head's document.
        try headCheck.result()
        guard let spliced else { return nil }
        let existing = try bundle.tree(of: bundle.headVersion)
        var children = [VersionLayout.documentName: FileWrapper(regularFileWithContents: spliced.text)]
        let existingBlobs = existing[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        var blobs = existingBlobs
        if let referenced = spliced.blobs {
            // As `VersionLayout.fileWrapper` makes the tree: exactly the blobs the
            // document refers to, the bundle's where it has them.
            guard let files = pending.blobFiles(referenced, headBlobs: existingBlobs, fromHistory: false) else {
                return nil
            }
            blobs = files
        }
        if !blobs.isEmpty { children[VersionLayout.blobsFolder] = FileWrapper(directoryWithFileWrappers: blobs) }
        return SaveContent(
            root: FileWrapper(directoryWithFileWrappers: children), contentType: T.contentType,
            schema: T.schemaVersion.description, documentChanges: spliced.changes, baseDocument: head)
    }
}
