import Foundation

extension DocumentRelationship {
    /// What is wrong with this relationship in `document`: references to records that do
    /// not exist (dangling), a target listed twice or by two sources, and an inverse that
    /// disagrees with the lists. A document that passes has both sides in step.
    public func violations(in document: Document) -> [RuleViolation] {
        violations(in: snapshot(document))
    }

    /// What is wrong with this relationship among the ids of `snapshot`.
    package func violations(in snapshot: RelationshipSnapshot) -> [RuleViolation] {
        WorkMeter.count(.ruleSteps, snapshot.sources.reduce(0) { $0 + $1.references.count } + snapshot.targets.count)
        var sourcePositions: [UUID: Int] = [:]
        for (position, source) in snapshot.sources.enumerated() where sourcePositions[source.id] == nil {
            sourcePositions[source.id] = position
        }
        let targets = Set(snapshot.targets.map(\.id))
        var violations: [RuleViolation] = []
        var listedBy: [UUID: Int] = [:]
        for (position, source) in snapshot.sources.enumerated() {
            var seen = Set<UUID>()
            for (offset, target) in source.references.enumerated() {
                let path = "\(sourcesKey)[\(position)].\(referencesKey)[\(offset)]"
                if !targets.contains(target) {
                    violations.append(
                        RuleViolation(
                            path, "\(target.uuidString) is not the id of any of \(targetsKey)",
                            code: "document.dangling-reference"))
                } else if !seen.insert(target).inserted {
                    violations.append(
                        RuleViolation(
                            path, "lists \(target.uuidString) twice", code: "document.inconsistent-relationship"))
                } else if inverseKey != nil {
                    if let other = listedBy[target] {
                        violations.append(
                            RuleViolation(
                                path,
                                """
                                \(target.uuidString) is also listed by \(sourcesKey)[\(other)]; it can belong to \
                                one only
                                """,
                                code: "document.inconsistent-relationship"))
                    } else {
                        listedBy[target] = position
                    }
                }
            }
        }
        guard let inverseKey else { return violations }
        for (position, target) in snapshot.targets.enumerated() {
            let path = "\(targetsKey)[\(position)].\(inverseKey)"
            let lister = listedBy[target.id]
            if let source = target.inverse {
                guard let sourcePosition = sourcePositions[source] else {
                    violations.append(
                        RuleViolation(
                            path, "\(source.uuidString) is not the id of any of \(sourcesKey)",
                            code: "document.dangling-reference"))
                    continue
                }
                if lister != sourcePosition {
                    violations.append(
                        RuleViolation(
                            path,
                            """
                            is \(source.uuidString), but \(sourcesKey)[\(sourcePosition)].\(referencesKey) does \
                            not list \(target.id.uuidString)
                            """,
                            code: "document.inconsistent-relationship"))
                }
            } else if let lister {
                violations.append(
                    RuleViolation(
                        path, "is empty, but \(sourcesKey)[\(lister)].\(referencesKey) lists \(target.id.uuidString)",
                        code: "document.inconsistent-relationship"))
            }
        }
        return violations
    }
}
