import Foundation

extension RecordSplice {
    /// What happened to the record the edit names.
    private enum RecordEdit {
        case changed(position: Int, old: JSONValue, new: JSONValue)
        case appended(JSONValue)
        case removed(position: Int)
    }

    /// An edit of one record of `collection`: changed, appended or removed; the
    /// relationships applied over the head's records (`table`) when the edit moves one.
    package func spliceRecord(of collection: RecordCollection<Document>, _ splicer: Splicer, table: RecordTable)
        -> Result?
    {
        let components = edit.path.components
        guard components.count >= 2 else { return nil }
        let key = collection.key
        let collections = Document.recordCollections
        var table = table
        if splicer.members.contains(where: { $0.key == key }), table.records[key] == nil { return nil }
        guard let recordEdit = locate(in: table, key: key, components: components) else { return nil }

        // The edited record, completed and checked by its type before any rule sees it, as
        // decoding the whole document would (a new task gets its id here).
        var edited: (json: JSONValue, text: Data)?
        switch recordEdit {
        case .changed(_, _, let new), .appended(let new):
            guard let canonical = canonicalRecord(new, of: collection) else { return nil }
            edited = canonical
        case .removed:
            break
        }
        let relationships = Document.relationships
        let overRecords = relationships.map { $0.onRecords() }
        let lists = Dictionary(grouping: relationships, by: \.sourcesKey).mapValues { Set($0.map(\.referencesKey)) }
        let names = Dictionary(grouping: relationships.filter { $0.inverseKey != nil }, by: \.targetsKey).mapValues {
            Set($0.map { $0.inverseKey! })
        }
        if case .removed(let position) = recordEdit,
            let nullified = nullifiedReferences(toRecord: position, of: key, in: table)
        {
            return spliceRemoval(
                of: position, in: key, nullifying: nullified, table: table, lists: lists, names: names, splicer)
        }
        let movesRelationships: Bool
        switch recordEdit {
        case .removed: movesRelationships = true
        case .appended: movesRelationships = !relates(nil, edited!.json, key)
        case .changed(_, let old, _): movesRelationships = !relates(old, edited!.json, key)
        }
        var before: RelationshipSnapshots?
        if movesRelationships {
            table.readFields(
                of: Set(relationships.flatMap { [$0.sourcesKey, $0.targetsKey] }), lists: lists, names: names)
            before = RelationshipSnapshots(snapshots: overRecords.map { $0.snapshot(table) })
        }
        let idChanged: Bool
        if case .changed(_, let old, _) = recordEdit {
            idChanged = old.identity() != edited!.json.identity()
        } else {
            idChanged = edited != nil
        }
        // The records as the head holds them, for the changes.
        let original = table
        // The edit, made to the table.
        switch recordEdit {
        case .changed(let position, _, _):
            RecordTable.set(
                &table.records[key]![position], to: edited!.json, lists: lists[key] ?? [], names: names[key] ?? [])
        case .appended:
            var record = RecordTable.Record()
            RecordTable.set(&record, to: edited!.json, lists: lists[key] ?? [], names: names[key] ?? [])
            table.records[key, default: []].append(record)
        case .removed(let position):
            table.records[key]!.remove(at: position)
        }
        // A new id must be the collection's only one.
        if idChanged {
            guard let id = edited!.json.identity(), table.count(ofID: id, in: key) == 1 else { return nil }
        }
        var encoded: [String: [Int: [UInt8]]] = [:]
        if let edited, case .changed(let position, _, _) = recordEdit {
            encoded[key, default: [:]][position] = JSONText.reindented(edited.text, levels: 2)
        }
        if let before {
            guard RelationshipRules(relationships: overRecords).apply(before: before, to: &table).isEmpty else {
                return nil
            }
            // The records the rules changed are completed and checked by their types too.
            for (collectionKey, records) in table.records {
                guard let recordCollection = collections.first(where: { $0.key == collectionKey }) else { continue }
                for (index, record) in records.enumerated() where record.changed != nil {
                    guard let canonical = canonicalRecord(record.changed!, of: recordCollection) else { return nil }
                    RecordTable.set(
                        &table.records[collectionKey]![index], to: canonical.json,
                        lists: lists[collectionKey] ?? [], names: names[collectionKey] ?? [])
                    encoded[collectionKey, default: [:]][index] = JSONText.reindented(canonical.text, levels: 2)
                }
            }
            for relationship in overRecords {
                guard relationship.violations(in: relationship.snapshot(table)).isEmpty else { return nil }
            }
        } else if let edited, case .appended = recordEdit {
            encoded[key, default: [:]][table.records[key]!.count - 1] = JSONText.reindented(edited.text, levels: 2)
        }
        return assemble(table, original: original, encoded: encoded, splicer)
    }

    /// The removal of record `position` of `key`, with `nullified`, the records that
    /// referred to it as they become (by collection and position before the removal),
    /// each completed and checked by its type as the rules' changes are.
    private func spliceRemoval(
        of position: Int, in key: String, nullifying nullified: [String: [Int: JSONValue]], table: RecordTable,
        lists: [String: Set<String>], names: [String: Set<String>], _ splicer: Splicer
    ) -> Result? {
        var table = table
        let original = table
        var encoded: [String: [Int: [UInt8]]] = [:]
        for (collectionKey, records) in nullified {
            guard let collection = Document.recordCollections.first(where: { $0.key == collectionKey }) else {
                return nil
            }
            for (index, json) in records {
                guard let canonical = canonicalRecord(json, of: collection) else { return nil }
                RecordTable.set(
                    &table.records[collectionKey]![index], to: canonical.json, lists: lists[collectionKey] ?? [],
                    names: names[collectionKey] ?? [])
                encoded[collectionKey, default: [:]][collectionKey == key && index > position ? index - 1 : index] =
                    JSONText.reindented(canonical.text, levels: 2)
            }
        }
        table.records[key]!.remove(at: position)
        return assemble(table, original: original, encoded: encoded, splicer)
    }

    /// Finds the record the path names and makes the edit to a copy of it.
    private func locate(in table: RecordTable, key: String, components: [JSONPath.Component]) -> RecordEdit? {
        let records = table.records[key] ?? []
        let rest = JSONPath(components: Array(components.dropFirst(2)))
        let position: Int
        switch components[1] {
        case .append:
            guard case .set(_, let value) = edit else { return nil }
            var appended = JSONValue.array([])
            guard (try? appended.setValue(value, at: JSONPath(components: [.append] + rest.components))) != nil,
                case .array(let made) = appended, made.count == 1, case .object = made[0]
            else { return nil }
            return .appended(made[0])
        case .index(let index):
            position = index < 0 ? records.count + index : index
            guard records.indices.contains(position) else { return nil }
        case .match(let field, let value):
            guard let found = records.firstIndex(where: { table.member(field, of: $0)?.matches(value) ?? false }) else {
                return nil
            }
            position = found
        case .key, .wildcard:
            // Every record at once is an edit of the whole collection.
            return nil
        }
        guard let old = table.json(records[position]) else { return nil }
        if case .remove = edit, rest.components.isEmpty { return .removed(position: position) }
        var new = old
        switch edit {
        case .set(_, let value): guard (try? new.setValue(value, at: rest)) != nil else { return nil }
        case .remove: guard (try? new.removeValue(at: rest)) != nil else { return nil }
        }
        guard case .object = new else { return nil }
        return .changed(position: position, old: old, new: new)
    }

    /// `json` decoded as a record of `collection`, checked by its rules, encoded again:
    /// its canonical JSON and text (for the top level), or `nil` if it breaks a rule.
    private func canonicalRecord(_ json: JSONValue, of collection: RecordCollection<Document>) -> (
        json: JSONValue, text: Data
    )? {
        guard let record = try? collection.decodeRecord(json, context),
            record.ruleViolations().isEmpty,
            let text = try? collection.encodeRecord(record),
            let canonical = try? JSONValue.parse(text),
            refersToKnownBlobs(canonical)
        else { return nil }
        return (canonical, text)
    }

    /// Whether the record `new` relates to what `old` related to (nothing, for a new
    /// record): its id, the ids it lists and the record it names back, in every
    /// relationship of its collection. Then no rule has anything to do.
    private func relates(_ old: JSONValue?, _ new: JSONValue, _ key: String) -> Bool {
        for relationship in Document.relationships {
            if relationship.sourcesKey == key {
                let before = old.flatMap(relationship.source(ofJSON:))
                let after = relationship.source(ofJSON: new)
                if let before, before != after { return false }
                if before == nil, !(after?.references.isEmpty ?? true) { return false }
            }
            if relationship.targetsKey == key {
                let before = old.flatMap(relationship.target(ofJSON:))
                let after = relationship.target(ofJSON: new)
                if let before, before != after { return false }
                if before == nil, after?.inverse != nil { return false }
            }
        }
        return true
    }

    /// The new document: each collection that changed written anew from its records (the
    /// head's bytes of those unchanged, `encoded` for the others), or left out when empty
    /// if the type leaves it out; and the changes, as the diff would find them.
    private func assemble(
        _ table: RecordTable, original: RecordTable, encoded: [String: [Int: [UInt8]]], _ splicer: Splicer
    ) -> Result? {
        var replaced: [String: [Splicer.Piece]] = [:]
        var removedMembers = Set<String>()
        var changes = JSONChangeList(limit: VersionChanges.limit)
        var blobsChanged = false
        let headKeys = Set(splicer.members.map(\.key))
        let separator = Array(",\n    ".utf8)
        for key in Set(encoded.keys).union(changedCollections(table, original)).sorted() {
            let records = table.records[key] ?? []
            let old = original.records[key] ?? []
            let stays = !records.isEmpty || writesEmpty(key, splicer)
            // The head's records that stay side by side are one range of its bytes, with
            // the separators between them.
            var text: [Splicer.Piece] = []
            if records.isEmpty {
                text = [.bytes(Array("[]".utf8))]
            } else {
                text.append(.bytes(Array("[\n    ".utf8)))
                for (index, record) in records.enumerated() {
                    if let bytes = encoded[key]?[index] {
                        text.append(.bytes(index > 0 ? separator + bytes : bytes))
                    } else if let stored = record.stored, record.changed == nil {
                        if index > 0, case .head(let last)? = text.last,
                            last.upperBound + separator.count == stored.lowerBound,
                            splicer.bytes(last.upperBound..<stored.lowerBound).elementsEqual(separator)
                        {
                            text[text.count - 1] = .head(last.lowerBound..<stored.upperBound)
                        } else {
                            if index > 0 { text.append(.bytes(separator)) }
                            text.append(.head(stored))
                        }
                    } else {
                        return nil
                    }
                }
                text.append(.bytes(Array("\n  ]".utf8)))
            }
            if stays { replaced[key] = text } else if headKeys.contains(key) { removedMembers.insert(key) }
            // The changes, as the diff finds them: records matched by id, in the head's
            // order, changed or removed, then the ones added; a collection that appears or
            // goes, whole.
            let oldJSON = { JSONValue.array(old.compactMap { original.json($0) }) }
            let newJSON = { JSONValue.array(records.compactMap { table.json($0) }) }
            switch (headKeys.contains(key), stays) {
            case (false, true):
                changes.append(throwing: Never.self, JSONChange(kind: .added, path: key, old: nil, new: newJSON()))
                blobsChanged = blobsChanged || !newJSON().blobReferences().isEmpty
                continue
            case (true, false):
                changes.append(throwing: Never.self, JSONChange(kind: .removed, path: key, old: oldJSON(), new: nil))
                blobsChanged = blobsChanged || !oldJSON().blobReferences().isEmpty
                continue
            case (false, false):
                continue
            case (true, true):
                break
            }
            func path(_ id: String) -> JSONPath { JSONPath(components: [.key(key), .match(field: "id", value: id)]) }
            // Records changed where they were, and records appended after them: each
            // one's own changes, under its id, then the records added.
            if records.count >= old.count, zip(records, old).allSatisfy({ $0.stored == $1.stored }) {
                var inPlace = changes
                var sameIDs = true
                for (index, record) in records.prefix(old.count).enumerated() where record.changed != nil {
                    guard let before = original.json(old[index]), let after = record.changed, let id = before.identity()
                    else { return nil }
                    // A record whose id changed is one removed and one added, to the diff.
                    guard after.identity() == id else {
                        sameIDs = false
                        break
                    }
                    blobsChanged = blobsChanged || !before.blobReferences().isEmpty || !after.blobReferences().isEmpty
                    JSONDiff.collect(from: before, to: after, at: path(id), into: &inPlace)
                }
                for record in records.dropFirst(old.count) {
                    guard let after = table.json(record), let id = after.identity() else { return nil }
                    blobsChanged = blobsChanged || !after.blobReferences().isEmpty
                    inPlace.append(
                        throwing: Never.self, JSONChange(kind: .added, path: path(id).description, old: nil, new: after)
                    )
                }
                if sameIDs {
                    changes = inPlace
                    continue
                }
            }
            // One record removed, others perhaps changed where they were (a removal and the
            // references to it nullified): the changes in the head's order, without
            // reading every record's id.
            if let removed = Self.singleRemoval(from: old, to: records) {
                var inOrder = changes
                var sameIDs = true
                for (index, record) in old.enumerated() {
                    let now = index == removed ? nil : records[index > removed ? index - 1 : index]
                    guard index == removed || now?.changed != nil else { continue }
                    guard let before = original.json(record), let id = before.identity() else { return nil }
                    blobsChanged = blobsChanged || !before.blobReferences().isEmpty
                    guard let now else {
                        inOrder.append(
                            throwing: Never.self,
                            JSONChange(kind: .removed, path: path(id).description, old: before, new: nil))
                        continue
                    }
                    guard let after = now.changed, after.identity() == id else {
                        sameIDs = false
                        break
                    }
                    blobsChanged = blobsChanged || !after.blobReferences().isEmpty
                    JSONDiff.collect(from: before, to: after, at: path(id), into: &inOrder)
                }
                if sameIDs {
                    changes = inOrder
                    continue
                }
            }
            var read = table
            read.readFields(of: [key])
            var oldTable = original
            oldTable.readFields(of: [key])
            let oldIDs = (oldTable.records[key] ?? []).map(\.idText)
            var newIDs = (read.records[key] ?? []).map(\.idText)
            for index in records.indices where newIDs[index] == nil {
                newIDs[index] = table.json(records[index]).flatMap { $0.identity() }
            }
            guard !oldIDs.contains(nil), !newIDs.contains(nil), Set(oldIDs).count == oldIDs.count,
                Set(newIDs).count == newIDs.count
            else { return nil }
            let newPositions = Dictionary(uniqueKeysWithValues: newIDs.enumerated().map { ($0.element!, $0.offset) })
            let oldIDSet = Set(oldIDs.map { $0! })
            for (index, id) in oldIDs.enumerated() {
                let id = id!
                if let position = newPositions[id] {
                    guard records[position].changed != nil else { continue }
                    guard let before = original.json(old[index]), let after = table.json(records[position]) else {
                        return nil
                    }
                    blobsChanged = blobsChanged || !before.blobReferences().isEmpty || !after.blobReferences().isEmpty
                    JSONDiff.collect(from: before, to: after, at: path(id), into: &changes)
                } else {
                    guard let before = original.json(old[index]) else { return nil }
                    blobsChanged = blobsChanged || !before.blobReferences().isEmpty
                    changes.append(
                        throwing: Never.self,
                        JSONChange(kind: .removed, path: path(id).description, old: before, new: nil))
                }
            }
            for (position, id) in newIDs.enumerated() where !oldIDSet.contains(id!) {
                guard let after = table.json(records[position]) else { return nil }
                blobsChanged = blobsChanged || !after.blobReferences().isEmpty
                changes.append(
                    throwing: Never.self, JSONChange(kind: .added, path: path(id!).description, old: nil, new: after))
            }
        }
        return result(
            splicer.document(replacing: replaced, removing: removedMembers), changes: changes,
            blobsChanged: blobsChanged)
    }

    /// The position of the one record of `old` that `new` lacks, when `new` is `old`
    /// without it (each other record where it was, changed or not).
    private static func singleRemoval(from old: [RecordTable.Record], to new: [RecordTable.Record]) -> Int? {
        guard new.count == old.count - 1 else { return nil }
        var removed = new.count
        for index in new.indices where new[index].stored != old[index].stored {
            removed = index
            break
        }
        guard old[removed].stored != nil, new[removed...].indices.allSatisfy({ new[$0].stored == old[$0 + 1].stored })
        else { return nil }
        return removed
    }

    /// The collections whose records differ from the head's: some removed or changed.
    private func changedCollections(_ table: RecordTable, _ original: RecordTable) -> Set<String> {
        var keys = Set<String>()
        for (key, records) in table.records
        where records.count != (original.records[key]?.count ?? 0) || records.contains(where: { $0.changed != nil }) {
            keys.insert(key)
        }
        for key in original.records.keys where table.records[key] == nil { keys.insert(key) }
        return keys
    }

    /// Whether the type writes the collection `key` when it is empty (`"tasks" : []`)
    /// rather than leaving it out: asked of the document's fields encoded with no records.
    private func writesEmpty(_ key: String, _ splicer: Splicer) -> Bool {
        let collections = Set(Document.recordCollections.map(\.key))
        var fields: [String: JSONValue] = [:]
        for member in splicer.members where !collections.contains(member.key) {
            fields[member.key] = try? JSONValue.parse(Data(splicer.bytes(member.value)))
        }
        guard
            let document = try? Document.decodeSchema(
                JSONValue.object(fields).encoded(pretty: false), context: context),
            let text = try? CanonicalJSONEncoder().encode(document),
            case .object(let members)? = try? JSONValue.parse(text)
        else { return true }
        return members[key] != nil
    }
}
