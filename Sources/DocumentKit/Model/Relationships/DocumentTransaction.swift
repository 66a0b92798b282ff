import Foundation

/// The commit step every write transaction shares, `DocumentController.write` and each
/// docctl edit alike: the change, made to a copy, is brought in line with the document's
/// relationships and checked against every rule, and refused as a whole, listing each
/// broken rule with its path, if any is broken. Nothing is saved then, and the document
/// the change started from is left as it was.
package enum DocumentTransaction {
    /// Applies `Document.relationships` to `document`, a change of a document whose
    /// relationships related `before`, and checks every rule; throws an `invalidDocument`
    /// error listing what is broken, together with `alsoBroken` (found by the caller, e.g.
    /// references to blobs the bundle lacks).
    package static func complete<Document: CodableDocument>(
        _ document: inout Document, before: RelationshipSnapshots,
        alsoBroken: [RuleViolation] = []
    ) throws {
        let broken = violations(applyingTo: &document, before: before) + alsoBroken
        if !broken.isEmpty { throw DocumentKitError(violations: broken) }
    }

    /// What `complete` throws for, without throwing.
    package static func violations<Document: CodableDocument>(
        applyingTo document: inout Document, before: RelationshipSnapshots
    ) -> [RuleViolation] {
        let applied = RelationshipRules(relationships: Document.relationships).apply(before: before, to: &document)
        var checked: [RuleViolation] = []
        do {
            try document.validate()
        } catch let error as DocumentKitError {
            checked = error.brokenRules
        } catch {
            checked = [RuleViolation("", "\(error)")]
        }
        var seen = Set<RuleViolation>()
        return (applied + checked).filter { seen.insert($0).inserted }
    }
}
