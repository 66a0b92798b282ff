import Foundation

/// The records of a document's collections as the head's text holds them, and as a
/// spliced edit and the relationship rules change them: the document `RelationshipRules`
/// works on when an edit is spliced (`DocumentRelationship.onRecords()`). A record stays
/// a range of the head's bytes until something changes it; only the members the
/// relationships read (ids, lists of ids, the id naming a record back) are parsed, and
/// only when the rules need them.
package struct RecordTable {
    package struct Record {
        /// The head's bytes of the record; `nil` for a record the edit added.
        package var stored: Range<Int>?
        /// The head's bytes of its `id` member's value, when it has one.
        package var storedID: Range<Int>?
        /// The record as changed (by the edit or the rules); `nil` while unchanged.
        package var changed: JSONValue?
        /// What the relationships read of it, boxed: most records of a large table are
        /// never read, and a table of 100,000 records stays a few megabytes.
        private var fields: Fields?

        package init(stored: Range<Int>? = nil, storedID: Range<Int>? = nil) {
            self.stored = stored
            self.storedID = storedID
        }

        /// Its `id` as the text spells it, and as a UUID.
        package var idText: String? {
            get { fields?.idText }
            set { mutableFields.idText = newValue }
        }
        package var id: UUID? {
            get { fields?.id }
            set { mutableFields.id = newValue }
        }
        /// The lists of ids (by member name) and the ids naming a record back (by member
        /// name) that the relationships read.
        package var lists: [String: [UUID]] {
            get { fields?.lists ?? [:] }
            set { mutableFields.lists = newValue }
        }
        package var names: [String: UUID] {
            get { fields?.names ?? [:] }
            set { mutableFields.names = newValue }
        }

        /// The fields, copied first when another copy of the record shares them.
        private var mutableFields: Fields {
            mutating get {
                if fields == nil {
                    fields = Fields()
                } else if !isKnownUniquelyReferenced(&fields!) {
                    fields = fields!.copy()
                }
                return fields!
            }
        }

        private final class Fields {
            var idText: String?
            var id: UUID?
            var lists: [String: [UUID]] = [:]
            var names: [String: UUID] = [:]

            func copy() -> Fields {
                let copy = Fields()
                (copy.idText, copy.id, copy.lists, copy.names) = (idText, id, lists, names)
                return copy
            }
        }
    }

    package let text: UnsafeRawBufferPointer
    /// The records of each collection, in order.
    package var records: [String: [Record]] = [:]
    /// The collections whose records' ids have been read, with the members read besides.
    private var read: [String: (lists: Set<String>, names: Set<String>)] = [:]

    /// The table of the collections whose elements the check of the head's text outlined.
    package init(text: UnsafeRawBufferPointer, outline: JSONOutline) {
        self.text = text
        for (key, elements) in outline.elements {
            records[key] = elements.map { Record(stored: $0.value, storedID: $0.identity) }
        }
    }

    /// The record's JSON: as changed, or parsed from the head's bytes.
    package func json(_ record: Record) -> JSONValue? {
        if let changed = record.changed { return changed }
        guard let stored = record.stored else { return nil }
        return try? JSONValue.parse(Data(UnsafeRawBufferPointer(rebasing: text[stored])))
    }

    /// The member `name` of `record`: from its changed JSON, or parsed alone from the
    /// head's bytes (the other members are skipped, not parsed).
    package func member(_ name: String, of record: Record) -> JSONValue? {
        if let changed = record.changed {
            guard case .object(let members) = changed else { return nil }
            return members[name]
        }
        guard let stored = record.stored, text[stored.lowerBound] == UInt8(ascii: "{") else { return nil }
        var scanner = JSONTextScanner(text: text, after: stored.lowerBound)
        while let member = try? scanner.nextMember() {
            if member.key == name {
                return try? JSONValue.parse(Data(UnsafeRawBufferPointer(rebasing: text[member.value])))
            }
        }
        return nil
    }

    /// Reads the id of every unchanged record of the collections `keys`, and the members
    /// `lists` and `names` name for each collection (lists of ids, ids naming a record
    /// back), each collection once.
    package mutating func readFields(
        of keys: some Sequence<String>, lists: [String: Set<String>] = [:], names: [String: Set<String>] = [:]
    ) {
        for key in keys {
            // Taken out of the table while it is read, so that it is changed in place.
            guard var collection = records.removeValue(forKey: key) else { continue }
            defer { records[key] = collection }
            let listKeys = lists[key] ?? []
            let nameKeys = names[key] ?? []
            if let done = read[key], listKeys.isSubset(of: done.lists), nameKeys.isSubset(of: done.names) { continue }
            read[key] = (listKeys, nameKeys)
            for index in collection.indices where collection[index].changed == nil {
                guard let stored = collection[index].stored, text[stored.lowerBound] == UInt8(ascii: "{") else {
                    continue
                }
                if let storedID = collection[index].storedID {
                    collection[index].idText = string(storedID)
                    collection[index].id = collection[index].idText.flatMap(UUID.init(text:))
                }
                // The id was found by the check of the text; the other members only by a scan.
                if listKeys.isEmpty, nameKeys.isEmpty { continue }
                var scanner = JSONTextScanner(text: text, after: stored.lowerBound)
                while let member = try? scanner.nextMember() {
                    if member.key == "id" {
                        continue
                    } else if listKeys.contains(member.key) {
                        guard
                            case .array(let ids)? = try? JSONValue.parse(
                                Data(UnsafeRawBufferPointer(rebasing: text[member.value])))
                        else { continue }
                        collection[index].lists[member.key] = ids.compactMap {
                            if case .string(let id) = $0 { UUID(text: id) } else { nil }
                        }
                    } else if nameKeys.contains(member.key), let name = string(member.value) {
                        collection[index].names[member.key] = UUID(text: name)
                    }
                }
            }
        }
    }

    /// How many records of the collection `key` have the id `id`: those read or changed
    /// by the id they hold, the others by the head's bytes of theirs, decoded only when
    /// the bytes differ and either side is not plain ASCII (a string may equal another
    /// spelled differently, `K` and the Kelvin sign).
    package func count(ofID id: String, in key: String) -> Int {
        var encoded: [UInt8] = []
        JSONText.appendString(id, to: &encoded)
        let idIsASCII = id.utf8.allSatisfy { $0 < 0x80 }
        var count = 0
        for record in records[key] ?? [] {
            if record.changed != nil || record.storedID == nil {
                if record.idText == id { count += 1 }
                continue
            }
            let stored = UnsafeRawBufferPointer(rebasing: text[record.storedID!])
            if stored.count == encoded.count, memcmp(stored.baseAddress!, encoded, encoded.count) == 0 {
                count += 1
            } else if !idIsASCII || Self.needsDecoding(stored), string(record.storedID!) == id {
                count += 1
            }
        }
        return count
    }

    /// Whether the text of a string holds an escape or a byte outside ASCII, so that it may
    /// equal a string spelled otherwise.
    private static func needsDecoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == UInt8(ascii: "\\") { return true }
        return false
    }

    /// The string at `range`, if it is one.
    private func string(_ range: Range<Int>) -> String? {
        guard text[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        if !text[range].contains(UInt8(ascii: "\\")) {
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: text[(range.lowerBound + 1)..<(range.upperBound - 1)]),
                as: UTF8.self)
        }
        guard case .string(let value)? = try? JSONValue.parse(Data(UnsafeRawBufferPointer(rebasing: text[range])))
        else { return nil }
        return value
    }

    /// Makes `record` read as `json` (its id, lists and names too), marking it changed.
    package static func set(_ record: inout Record, to json: JSONValue, lists: Set<String>, names: Set<String>) {
        record.changed = json
        guard case .object(let members) = json else { return }
        if case .string(let id)? = members["id"] { record.idText = id } else { record.idText = nil }
        record.id = record.idText.flatMap(UUID.init(text:))
        record.lists = [:]
        record.names = [:]
        for key in lists {
            if case .array(let ids)? = members[key] {
                record.lists[key] = ids.compactMap { if case .string(let id) = $0 { UUID(text: id) } else { nil } }
            }
        }
        for key in names {
            if case .string(let name)? = members[key] { record.names[key] = UUID(text: name) }
        }
    }
}

extension DocumentRelationship {
    /// This relationship over a `RecordTable`, by its JSON keys: the same rules, applied
    /// to the records of a spliced edit instead of to typed values.
    package func onRecords() -> DocumentRelationship<RecordTable> {
        DocumentRelationship<RecordTable>(keysOf: self)
    }
}

extension DocumentRelationship where Document == RecordTable {
    /// A relationship over records with the keys and rules of `other`.
    package init<Other>(keysOf other: DocumentRelationship<Other>) {
        name = other.name
        sourcesKey = other.sourcesKey
        referencesKey = other.referencesKey
        targetsKey = other.targetsKey
        inverseKey = other.inverseKey
        deleteRule = other.deleteRule
        inverseDeleteRule = other.inverseDeleteRule
        let (sourcesKey, referencesKey, targetsKey, inverseKey) = (
            other.sourcesKey, other.referencesKey, other.targetsKey, other.inverseKey
        )
        snapshot = { table in
            let sources = table.records[sourcesKey] ?? []
            let targets = table.records[targetsKey] ?? []
            WorkMeter.count(.ruleSteps, sources.count + targets.count)
            return RelationshipSnapshot(
                sources: sources.compactMap { record in
                    record.id.map { .init(id: $0, references: record.lists[referencesKey] ?? []) }
                },
                targets: targets.compactMap { record in
                    record.id.map { .init(id: $0, inverse: inverseKey.flatMap { record.names[$0] }) }
                })
        }
        removeSources = { table, ids in table.records[sourcesKey]?.removeAll { $0.id.map(ids.contains) ?? false } }
        removeTargets = { table, ids in table.records[targetsKey]?.removeAll { $0.id.map(ids.contains) ?? false } }
        setReferences = { table, changes in
            guard var records = table.records[sourcesKey] else { return }
            for index in records.indices {
                guard let id = records[index].id, let new = changes[id],
                    case .object(var members)? = table.json(records[index])
                else { continue }
                members[referencesKey] = .array(new.map { .string($0.uuidString) })
                records[index].changed = .object(members)
                records[index].lists[referencesKey] = new
            }
            table.records[sourcesKey] = records
        }
        setInverses = { table, changes in
            guard let inverseKey, var records = table.records[targetsKey] else { return }
            for index in records.indices {
                guard let id = records[index].id, let new = changes[id],
                    case .object(var members)? = table.json(records[index])
                else { continue }
                members[inverseKey] = new.map { .string($0.uuidString) }
                records[index].changed = .object(members)
                records[index].names[inverseKey] = new
            }
            table.records[targetsKey] = records
        }
    }
}
