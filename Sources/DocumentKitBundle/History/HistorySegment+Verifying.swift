import DocumentKitArchive
import DocumentKitCore
import Foundation

extension HistorySegment.Reader {
    /// Reads the whole segment once and checks it, for `validate`: the index against its
    /// CRC-32; blocks back to back from the magic to the index, each decoded to its
    /// recorded size and walked item by item; every record identified; each version row
    /// pointing, in order, at its version's record with its id's prefix; the object table
    /// sorted, its rows and the object items stored alone one to one, each row pointing
    /// at its object with its digest's prefix. Returns the items, in order.
    ///
    /// One read of the index and one decode of each block, where asking row by row reads
    /// a row and walks a block for each item (what a `validate` of 10,000 versions spent
    /// most of its 6 s on).
    package func verifiedItems() throws -> [HistorySegment.Item] {
        var items: [HistorySegment.Item] = []
        try verifyItems(identifying: identify) { items.append($0) }
        return items
    }

    /// Reads and checks the segment as ``verifiedItems()`` does, passing each item to
    /// `visit` as it is read (a block at a time, never the segment's items all at once), and
    /// identifying each record with `identify` (which may keep what it parsed, as `validate`
    /// keeps each record's members to check them). The rows are checked against what each
    /// item was, once every item has been read; an item visited before a failure is thrown
    /// was read whole, but not yet found where the index says.
    package func verifyItems(
        identifying identify: (Data) throws -> VersionID, _ visit: (HistorySegment.Item) throws -> Void
    ) throws {
        let length = (blockCount + versionCount + objectCount) * HistorySegment.rowSize
        let index = try read(indexOffset, length)
        guard index.count == length else { throw HistorySegment.failure("its index is cut short") }
        var crc = CRC32()
        index.withUnsafeBytes { crc.update($0) }
        guard crc.value == indexCRC else { throw HistorySegment.failure("its index does not match its CRC-32") }
        var cursor = LittleEndianCursor(index)

        // What each item was, in order: what the rows must point at.
        var read: [ItemFacts] = []
        // Where each item starts, by block and offset.
        var starts: [HistorySegment.Location: Int] = [:]
        var end = UInt64(HistorySegment.magic.count)
        for number in 0..<blockCount {
            let (offset, stored, size) = (cursor.u64(), Int(cursor.u32()), Int(cursor.u32()))
            guard offset == end, offset + UInt64(stored) <= indexOffset, size <= Self.maxBlockSize else {
                throw HistorySegment.failure(
                    "block \(number) (\(stored) bytes at \(offset)) is not where the one before it ends")
            }
            end = offset + UInt64(stored)
            let block: Data
            do {
                block = try ZstdCodec.decompress(try self.read(offset, stored), expectedSize: size)
            } catch let error as ArchiveError {
                throw HistorySegment.failure("block \(number): \(error.message)")
            }
            var reader = HistorySegment.ItemReader(bytes: block, position: 0)
            while reader.position < block.count {
                starts[HistorySegment.Location(block: UInt32(number), offset: UInt32(reader.position))] = read.count
                guard let item = try withoutActuallyEscaping(identify, do: { try reader.next(identify: $0) }) else {
                    break
                }
                read.append(ItemFacts(item))
                try visit(item)
            }
        }
        guard end == indexOffset else { throw HistorySegment.failure("bytes lie between its last block and its index") }

        let versionItems = read.indices.filter { read[$0].kind == .version }
        guard versionItems.count == versionCount else {
            throw HistorySegment.failure("it holds \(versionItems.count) records, and its index \(versionCount)")
        }
        for (row, item) in versionItems.enumerated() {
            let (prefix, block, offset) = (cursor.u64(), cursor.u32(), cursor.u32())
            guard starts[HistorySegment.Location(block: block, offset: offset)] == item, read[item].prefix == prefix
            else {
                throw HistorySegment.failure("version row \(row) does not point at that version's record")
            }
        }
        var pointedAt = Set<Int>()
        var previous: UInt64 = 0
        for row in 0..<objectCount {
            let (prefix, block, offset) = (cursor.u64(), cursor.u32(), cursor.u32())
            guard prefix >= previous else { throw HistorySegment.failure("its object table is not sorted") }
            previous = prefix
            guard let item = starts[HistorySegment.Location(block: block, offset: offset)],
                read[item].kind == .indexedObject,
                read[item].prefix == prefix, pointedAt.insert(item).inserted
            else {
                throw HistorySegment.failure("object row \(row) does not point at an object of its digest")
            }
        }
        let unindexed = read.count { $0.kind == .indexedObject } - objectCount
        guard unindexed == 0 else {
            throw HistorySegment.failure("\(unindexed) objects have no row in its object table")
        }
        let pruned = read.count { $0.kind == .pruned }
        guard pruned == prunedCount else {
            throw HistorySegment.failure("it holds \(pruned) pruned ids, and its trailer \(prunedCount)")
        }
    }
}

/// What the index checks need of an item, once it has been read: its kind, and the prefix
/// of its id or digest that a row names it by.
private struct ItemFacts {
    enum Kind { case version, indexedObject, placedObject, pruned }

    var kind: Kind
    var prefix: UInt64

    init(_ item: HistorySegment.Item) {
        switch item {
        case .version(let id, _): (kind, prefix) = (.version, HistorySegment.prefix(ofHex: id))
        case .object(let object):
            (kind, prefix) =
                object.foundByPlace
                ? (.placedObject, 0) : (.indexedObject, HistorySegment.prefix(ofHex: object.digest.hex))
        case .pruned: (kind, prefix) = (.pruned, 0)
        }
    }
}
