import DocumentKitCore
import Foundation

extension RecordSplice {
    /// The records that refer to record `position` of collection `key`, each with its
    /// references to it taken out, when removing the record can do no more than that
    /// (every rule it meets nullifies): found where the record's id appears in the head's
    /// text, so that a removal reads and changes the records that name it, not every
    /// record of the document. `nil` when the removal needs the rules over every record:
    /// a rule that cascades or denies meets it, another record has its id, or its id is
    /// not spelled as the document type writes ids (then a reference spelled otherwise
    /// could hide from the scan).
    ///
    /// Like an edit that moves no relationship, it trusts the head to keep its rules (its
    /// text is checked against the head's digest): what the removal does not touch stays
    /// as consistent as it was.
    func nullifiedReferences(toRecord position: Int, of key: String, in table: RecordTable) -> [String: [Int:
        JSONValue]]?
    {
        guard let record = table.records[key]?[position], record.changed == nil, let stored = record.stored,
            let idRange = record.storedID, let removed = table.json(record), case .object(let members) = removed
        else { return nil }
        // The id as `UUID.uuidString` spells it, quotes included: how every id is written.
        let quoted = Array(table.text[idRange])
        guard quoted.count == 38, let idText = String(bytes: quoted.dropFirst().dropLast(), encoding: .utf8),
            let id = UUID(text: idText), id.uuidString == idText, table.count(ofID: idText, in: key) == 1
        else { return nil }
        for relationship in Document.relationships where relationship.sourcesKey == key {
            // The targets a removed source lists go by its delete rule: only nullify leaves them.
            if case .array(let listed)? = members[relationship.referencesKey], !listed.isEmpty,
                relationship.deleteRule != .nullify
            {
                return nil
            }
        }
        var edited: [String: [Int: JSONValue]] = [:]
        let related = Set(Document.relationships.flatMap { [$0.sourcesKey, $0.targetsKey] })
        for offset in ByteSearch.offsets(of: quoted, in: table.text) where !stored.contains(offset) {
            WorkMeter.count(.ruleSteps)
            for collection in related {
                guard let index = Self.record(containing: offset, in: table.records[collection] ?? []) else { continue }
                // Parsed once, however many times the record names the removed one.
                let before = edited[collection]?[index] ?? table.json(table.records[collection]![index])
                guard let before, case .object(var fields) = before else { return nil }
                for relationship in Document.relationships {
                    if relationship.targetsKey == key, relationship.sourcesKey == collection,
                        case .array(let list)? = fields[relationship.referencesKey], list.contains(.string(idText))
                    {
                        guard relationship.inverseDeleteRule == .nullify else { return nil }
                        fields[relationship.referencesKey] = .array(list.filter { $0 != .string(idText) })
                    }
                    if relationship.sourcesKey == key, relationship.targetsKey == collection,
                        let inverseKey = relationship.inverseKey,
                        fields[inverseKey] == .string(idText)
                    {
                        guard relationship.deleteRule == .nullify else { return nil }
                        fields[inverseKey] = nil
                    }
                }
                let after = JSONValue.object(fields)
                if after != before { edited[collection, default: [:]][index] = after }
            }
        }
        return edited
    }

    /// The index of the record of `records` (the head's, in text order) whose bytes hold `offset`.
    private static func record(containing offset: Int, in records: [RecordTable.Record]) -> Int? {
        var low = 0
        var high = records.count - 1
        while low <= high {
            let middle = (low + high) / 2
            guard let stored = records[middle].stored else { return nil }
            if stored.upperBound <= offset {
                low = middle + 1
            } else if stored.lowerBound > offset {
                high = middle - 1
            } else {
                return middle
            }
        }
        return nil
    }
}
