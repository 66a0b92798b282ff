import Foundation

extension DocumentController where Document: CodableDocument {
    /// Makes any number of changes to the document and saves them as one version, or
    /// none of them, like a Realm write transaction:
    ///
    /// ```swift
    /// try controller.write(message: "Plan the week") { project in
    ///     project.tasks.append(ProjectTask(title: "Water the beds"))
    ///     project.tasks.removeAll { $0.status == .done }
    /// }
    /// ```
    ///
    /// `body` changes a copy of `document`. When it returns, the copy is brought in line
    /// with the type's relationships (inverse sides follow, delete rules cascade, nullify
    /// or deny) and checked against every rule of the type and every blob it refers to. If
    /// `body` throws, or any rule is broken, nothing is saved, `document` stays as it was,
    /// and the error (for rules, an `invalidDocument` error whose `violations` list each
    /// one with its path) is rethrown. The save itself is the same as `save`'s: atomic,
    /// refused with `conflict` if another writer saved since this controller read the
    /// bundle. Returns the new version, or `nil` when the changes left the document as it
    /// was.
    @discardableResult
    public func write(
        message: String = "", author: String, created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd,
        _ body: (inout Document) throws -> Void
    ) throws -> BundleVersion? {
        var draft = document
        try body(&draft)
        let broken = DocumentTransaction.violations(applyingTo: &draft, before: document.relationshipSnapshots)
        if !broken.isEmpty {
            // Report the blobs it lacks with the rules, so that one attempt shows everything.
            throw DocumentKitError(violations: broken + missingBlobs(of: draft), path: url.relativePath)
        }
        let version = try DocumentKitError.located(at: url.relativePath) {
            try save(
                draft,
                metadata: SaveMetadata(author: author, message: message, created: created, compression: compression))
        }
        document = draft
        return version
    }

    /// Saves the document as a new version by `author`, once it satisfies every rule of its
    /// type: a document that breaks one is refused (`invalidDocument`, each violation listed
    /// in `violations`, missing blobs too) and nothing is written, so that whatever is
    /// saved reads back. `write { }` also brings the relationships in line before it checks.
    @discardableResult
    public func save(
        message: String = "", author: String, created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd
    ) throws -> BundleVersion? {
        var broken: [RuleViolation] = []
        do {
            try document.validate()
        } catch let error as DocumentKitError where error.code == .invalidDocument {
            broken = error.brokenRules
        }
        if !broken.isEmpty {
            throw DocumentKitError(violations: broken + missingBlobs(of: document), path: url.relativePath)
        }
        return try DocumentKitError.located(at: url.relativePath) {
            try save(
                document,
                metadata: SaveMetadata(author: author, message: message, created: created, compression: compression))
        }
    }

    /// The references of `draft` to blobs whose bytes are nowhere to be had.
    private func missingBlobs(of draft: Document) -> [RuleViolation] {
        do {
            _ = try VersionLayout.fileWrapper(
                for: draft, existingFile: try bundle.map { try $0.tree(of: $0.headVersion) })
            return []
        } catch let error as DocumentKitError {
            return error.violations
        } catch {
            return []
        }
    }
}
