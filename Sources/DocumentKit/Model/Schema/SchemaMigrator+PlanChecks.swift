import Foundation

extension SchemaMigrator {
    /// Throws `invalidMigrationPlan`, saying what is wrong, unless the plan's schemas
    /// strictly increase and its stages go, one each and in order, from every schema to
    /// the next, under ids that are unique and not empty.
    package func checkPlan() throws {
        guard !schemas.isEmpty else { throw planError("lists no schemas") }
        for index in schemas.indices.dropFirst() {
            let (previous, version) = (versions[index - 1], versions[index])
            if version == previous { throw planError("lists schema \(version) twice") }
            if version < previous {
                throw planError("lists schema \(version) after \(previous); schemas go oldest first")
            }
        }
        var ids = Set<String>()
        for (index, stage) in stages.enumerated() {
            if stage.id.isEmpty { throw planError("stage \(index + 1) has an empty id") }
            if !ids.insert(stage.id).inserted { throw planError("two stages have the id '\(stage.id)'") }
        }
        for stage in stages {
            let from = try position(of: stage.fromVersion, in: stage)
            let to = try position(of: stage.toVersion, in: stage)
            if to <= from {
                throw planError(
                    """
                    stage '\(stage.id)' goes from \(versions[from]) \
                    \(to == from ? "to the same schema" : "back to \(versions[to])")
                    """
                )
            }
            if to > from + 1 {
                throw planError(
                    """
                    stage '\(stage.id)' goes from \(versions[from]) to \(versions[to]), past \
                    \(versions[from + 1]); a stage goes from one schema to the next
                    """
                )
            }
        }
        for index in versions.indices.dropLast() {
            let starting = stages.filter { $0.fromVersion.versionIdentifier == versions[index] }
            if starting.count > 1 {
                throw planError(
                    "stages '\(starting[0].id)' and '\(starting[1].id)' both migrate from \(versions[index])")
            }
            if starting.isEmpty {
                throw planError("no stage migrates from \(versions[index]) to \(versions[index + 1])")
            }
        }
        // Now every schema but the last starts exactly one stage: the order is all that is left.
        for (index, stage) in stages.enumerated() where stage.fromVersion.versionIdentifier != versions[index] {
            let expected = stages.first { $0.fromVersion.versionIdentifier == versions[index] }!
            throw planError(
                """
                stage '\(stage.id)' (\(describe(stage))) is listed before stage '\(expected.id)' \
                (\(describe(expected))); stages run in the order listed, oldest first
                """
            )
        }
    }

    /// Where the plan lists `schema`, which must be the very type the plan lists.
    private func position(of schema: any VersionedSchema.Type, in stage: MigrationStage) throws -> Int {
        let version = schema.versionIdentifier
        guard let index = versions.firstIndex(of: version) else {
            throw planError(
                "stage '\(stage.id)' names schema \(version), which the plan does not list (it lists \(knownVersions))")
        }
        guard ObjectIdentifier(schemas[index]) == ObjectIdentifier(schema) else {
            throw planError(
                "stage '\(stage.id)' names \(schema) for schema \(version), but the plan lists \(schemas[index])")
        }
        return index
    }

    private func describe(_ stage: MigrationStage) -> String {
        "\(stage.fromVersion.versionIdentifier) → \(stage.toVersion.versionIdentifier)"
    }

    package func planError(_ message: String) -> DocumentKitError {
        DocumentKitError(.invalidMigrationPlan, "migration plan \(plan) of \(documentName) \(message)")
    }
}
