import DocumentKitArchive
import DocumentKitCore
import Foundation

extension HistorySegment {
    /// Reads one segment through `read` (offset and length within the segment's data):
    /// its trailer when opened, then the index rows and the block each question needs, so
    /// that opening and asking cost the same however many versions the segment holds.
    /// ``verifyItems(identifying:_:)`` reads and checks the whole segment, for `validate`.
    package struct Reader: Sendable {
        package typealias ReadRange = @Sendable (_ offset: UInt64, _ length: Int) throws -> Data

        let read: ReadRange
        /// The id of a record (without its `id`): the SHA-256 of its record text.
        let identify: @Sendable (Data) throws -> VersionID
        /// The place of the segment's first version.
        package let firstPlace: UInt64
        package let blockCount: Int
        package let versionCount: Int
        package let objectCount: Int
        package let prunedCount: Int
        let indexOffset: UInt64
        let indexCRC: UInt32
        /// The blocks decoded last, newest last: reading versions in order decodes each block
        /// once, and looking up a tree's objects (sorted by digest, so in no order of
        /// blocks) decodes each of a few blocks once.
        private let recentBlocks = Protected<[(number: Int, data: Data)]>([])
        /// How many decoded blocks a reader keeps: at most 512 KiB of a 64 KiB block size.
        private static let recentBlockLimit = 8
        /// The most bytes one block may decode to: a block holds items of at most 64 KiB,
        /// save one record alone, whose changes are bounded far below this.
        static let maxBlockSize = 16 << 20

        /// Opens the segment of `length` bytes that `read` reads, checking its magic and
        /// its trailer's counts and offsets against each other and the length.
        package init(
            length: UInt64, identify: @escaping @Sendable (Data) throws -> VersionID, read: @escaping ReadRange
        ) throws {
            self.read = read
            self.identify = identify
            let trailerSize = UInt64(HistorySegment.trailerSize)
            guard length >= UInt64(HistorySegment.magic.count) + trailerSize else {
                throw HistorySegment.failure("\(length) bytes is too short for a segment")
            }
            guard Array(try read(0, HistorySegment.magic.count)) == HistorySegment.magic else {
                throw HistorySegment.failure("it does not start with DKH1")
            }
            let trailerBytes = try read(length - trailerSize, Int(trailerSize))
            guard trailerBytes.count == Int(trailerSize) else {
                throw HistorySegment.failure("its trailer is cut short")
            }
            var trailer = LittleEndianCursor(trailerBytes)
            guard trailer.bytes(4) == HistorySegment.trailerMagic else {
                throw HistorySegment.failure("its trailer does not start with DKHT")
            }
            let counts = (trailer.u32(), trailer.u32(), trailer.u32(), trailer.u32())
            firstPlace = trailer.u64()
            let indexOffset = trailer.u64()
            let indexLength = trailer.u64()
            indexCRC = trailer.u32()
            let rows = UInt64(counts.0) + UInt64(counts.1) + UInt64(counts.2)
            // A pruned id is an item of 66 bytes at least, in blocks of at most `maxBlockSize`.
            guard indexLength == rows * UInt64(HistorySegment.rowSize),
                indexOffset >= UInt64(HistorySegment.magic.count),
                indexOffset <= length - trailerSize, indexLength == length - trailerSize - indexOffset,
                UInt64(counts.3) <= UInt64(counts.0) * UInt64(Self.maxBlockSize / 66)
            else {
                throw HistorySegment.failure(
                    "its index (\(indexLength) bytes at \(indexOffset)) does not fit its trailer's counts")
            }
            self.indexOffset = indexOffset
            (blockCount, versionCount, objectCount, prunedCount) = (
                Int(counts.0), Int(counts.1), Int(counts.2), Int(counts.3)
            )
        }

        /// Index row `number` (block rows first, then version rows, then object rows).
        private func row(_ number: Int) throws -> (UInt64, UInt32, UInt32) {
            WorkMeter.count(.indexRows)
            let bytes = try read(indexOffset + UInt64(number * HistorySegment.rowSize), HistorySegment.rowSize)
            guard bytes.count == HistorySegment.rowSize else { throw HistorySegment.failure("its index is cut short") }
            var cursor = LittleEndianCursor(bytes)
            return (cursor.u64(), cursor.u32(), cursor.u32())
        }

        /// Block `number`'s frame (offset and stored size) and decoded size, checked to lie
        /// between the magic and the index.
        private func block(_ number: Int) throws -> (offset: UInt64, stored: Int, size: Int) {
            let (offset, stored, size) = try row(number)
            guard offset >= UInt64(HistorySegment.magic.count), offset + UInt64(stored) <= indexOffset,
                Int(size) <= Self.maxBlockSize
            else {
                throw HistorySegment.failure(
                    "block \(number) (\(stored) bytes at \(offset), \(size) decoded) does not lie among the blocks")
            }
            return (offset, Int(stored), Int(size))
        }

        /// A version or object row: its prefix and the item's place.
        private func itemRow(_ number: Int) throws -> (prefix: UInt64, at: Location) {
            let (prefix, block, offset) = try row(number)
            guard Int(block) < blockCount else {
                throw HistorySegment.failure("an index row points at block \(block), past the \(blockCount) blocks")
            }
            return (prefix, Location(block: block, offset: offset))
        }

        /// The record of the segment's `index`-th version (0 is `firstPlace`), its id, and
        /// the object item before it in its block (its root tree, when the version stored one).
        package func version(at index: Int) throws -> (id: VersionID, record: Data, before: ObjectItem?) {
            precondition(index >= 0 && index < versionCount, "version \(index) of a segment of \(versionCount)")
            let row = try itemRow(blockCount + index)
            let (item, before) = try self.item(at: row.at)
            guard case .version(let id, let record) = item, HistorySegment.prefix(ofHex: id) == row.prefix else {
                throw HistorySegment.failure("version row \(index) does not point at that version's record")
            }
            return (id, record, before)
        }

        /// The copies of the object `digest` the segment holds (one, or none): a search of
        /// the object table, reading a row a step. Digests are uniformly spread, so each
        /// other step guesses the row from the digest's value between the rows known to
        /// bound it (interpolation: about four rows of a table of 10,000, where bisecting
        /// reads fourteen); the steps between bisect, so that a table whose digests are not
        /// spread (a hostile one) costs at most twice a binary search.
        package func objects(_ digest: ObjectDigest) throws -> [ObjectItem] {
            let prefix = HistorySegment.prefix(ofHex: digest.hex)
            let first = blockCount + versionCount
            var low = 0
            var high = objectCount
            // The prefixes bounding [low, high): at `low - 1` and `high`, or the extremes.
            var lowPrefix: UInt64 = 0
            var highPrefix = UInt64.max
            var guessing = true
            while low < high {
                var middle = (low + high) / 2
                if guessing, highPrefix > lowPrefix, prefix >= lowPrefix {
                    let fraction = Double(prefix - lowPrefix) / Double(highPrefix - lowPrefix)
                    middle = min(high - 1, low + Int(fraction * Double(high - low)))
                }
                guessing.toggle()
                let found = try itemRow(first + middle).prefix
                if found < prefix {
                    (low, lowPrefix) = (middle + 1, found)
                } else {
                    (high, highPrefix) = (middle, found)
                }
            }
            var found: [ObjectItem] = []
            while low < objectCount {
                let row = try itemRow(first + low)
                guard row.prefix == prefix else { break }
                guard case .object(let object) = try item(startingAt: row.at) else {
                    throw HistorySegment.failure("an object row does not point at an object")
                }
                if object.digest == digest { found.append(object) }
                low += 1
            }
            return found
        }

        /// The copy of object `digest` readers take, when the segment stores it more than
        /// once (a restore stores a document the history holds as a delta again, whole:
        /// FORMAT.md §12.3): the first copy stored whole, else the first.
        /// ``BundleHistory``'s listing keeps the same one, so that a record listed and the
        /// item read always agree.
        package func object(_ digest: ObjectDigest) throws -> ObjectItem? {
            let copies = try objects(digest)
            return copies.first { $0.record.codec != .delta } ?? copies.first
        }

        /// The versions block `number` holds, in order, each with the object item before it:
        /// for reading versions one after another, a block decoded and walked once.
        package func versions(inBlock number: Int) throws -> [(id: VersionID, record: Data, before: ObjectItem?)] {
            var reader = ItemReader(bytes: try decodedBlock(number), position: 0)
            var versions: [(id: VersionID, record: Data, before: ObjectItem?)] = []
            while true {
                let before = reader.lastObject
                guard let item = try reader.next(identify: identify) else { break }
                if case .version(let id, let record) = item { versions.append((id, record, before)) }
            }
            return versions
        }

        /// The items block `number` holds, in order. A walk that reads every block once
        /// passes `keepingTheBlock: false`: kept, each segment's last eight blocks stayed
        /// in memory after the walk had moved on (13 MB at 100,000 versions).
        package func items(inBlock number: Int, identified: Bool = true, keepingTheBlock: Bool = true) throws
            -> [Item]
        {
            try items(in: try decodedBlock(number, keeping: keepingTheBlock), identified: identified)
        }

        /// Every item, in order: what listing and merging read. Records are identified
        /// unless `identified` is `false` (their ids are then empty): a reader that decodes
        /// every record anyway learns its id from that.
        package func items(identified: Bool = true) throws -> [Item] {
            try (0..<blockCount).flatMap { try items(in: try decodedBlock($0), identified: identified) }
        }

        /// The item at `location`, and the object item before it in its block: read from
        /// the block's start, since a record may name the tree before it (`"tree":"^"`).
        /// The item at `location`, read where it starts, without the items before it: an
        /// object's row needs no more (a row that points elsewhere than at an item's start
        /// gives an item that is not the digest looked up, or none).
        private func item(startingAt location: Location) throws -> Item {
            var reader = ItemReader(bytes: try decodedBlock(Int(location.block)), position: Int(location.offset))
            guard let item = try reader.next(identify: identify) else {
                throw HistorySegment.failure("an index row points past a block's end")
            }
            return item
        }

        private func item(at location: Location) throws -> (item: Item, before: ObjectItem?) {
            let bytes = try decodedBlock(Int(location.block))
            var reader = ItemReader(bytes: bytes, position: 0)
            // Items before it are passed over by their lengths, not parsed: a lookup of each
            // of a tree's 2,000 blobs would parse every item before each (issue 25's bench:
            // `info` of a 2,003-file project took 1.9 s). Only an object item right before
            // the one asked for is read, for a record naming it ("tree":"^").
            var objectBefore: Int?
            while reader.position < Int(location.offset) {
                let start = reader.position
                guard let kind = try reader.skip() else { break }
                objectBefore = kind == .object ? start : nil
            }
            guard reader.position == Int(location.offset) else {
                throw HistorySegment.failure("an index row points between items or past a block's end")
            }
            if let objectBefore {
                var previous = ItemReader(bytes: bytes, position: objectBefore)
                _ = try previous.next(identify: nil)
                reader.lastObject = previous.lastObject
            }
            let before = reader.lastObject
            guard let item = try reader.next(identify: identify) else {
                throw HistorySegment.failure("an index row points between items or past a block's end")
            }
            return (item, before)
        }

        private func decodedBlock(_ number: Int, keeping: Bool = true) throws -> Data {
            if let recent = recentBlocks.value.last(where: { $0.number == number }) { return recent.data }
            let block = try self.block(number)
            do {
                let data = try ZstdCodec.decompress(try read(block.offset, block.stored), expectedSize: block.size)
                guard keeping else { return data }
                recentBlocks.mutate { blocks in
                    blocks.removeAll { $0.number == number }
                    blocks.append((number, data))
                    if blocks.count > Self.recentBlockLimit { blocks.removeFirst() }
                }
                return data
            } catch let error as ArchiveError {
                throw HistorySegment.failure("block \(number): \(error.message)")
            }
        }

        private func items(in block: Data, identified: Bool = true) throws -> [Item] {
            var reader = ItemReader(bytes: block, position: 0)
            var items: [Item] = []
            if identified {
                let identify = identify
                while let item = try reader.next(identify: { try identify($0) }) { items.append(item) }
            } else {
                while let item = try reader.next(identify: nil) { items.append(item) }
            }
            return items
        }
    }

    /// Reads items from a decoded block.
    struct ItemReader {
        let bytes: Data
        var position: Int
        /// The last object item read, while the items read since are none.
        var lastObject: ObjectItem?

        init(bytes: Data, position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The next item, or `nil` at the block's end. A record is identified only when
        /// `identify` is given (its id is its record text's SHA-256); passed over, it is
        /// `.version` with an empty id.
        mutating func next(identify: ((Data) throws -> VersionID)?) throws -> Item? {
            guard let (kind, length) = try header() else { return nil }
            var payload = ItemReader(
                bytes: bytes.subdata(in: (bytes.startIndex + position)..<(bytes.startIndex + position + length)),
                position: 0)
            position += length
            switch kind {
            case .version:
                let record = try HistorySegment.expandingTree(in: payload.bytes, as: lastObject?.digest)
                lastObject = nil
                return .version(id: try identify?(record) ?? "", record: record)
            case .pruned:
                lastObject = nil
                return .pruned(try payload.readDigest().hex)
            case .object:
                let object = try payload.object()
                lastObject = object
                return .object(object)
            }
        }

        /// Passes over the next item, by its length; its kind, or `nil` at the block's end.
        mutating func skip() throws -> Kind? {
            guard let (kind, length) = try header() else { return nil }
            position += length
            return kind
        }

        /// The next item's kind and payload length, checked to fit the block; `nil` at
        /// the block's end.
        private mutating func header() throws -> (Kind, Int)? {
            guard position < bytes.count else { return nil }
            guard let kind = Kind(rawValue: byte()) else {
                throw HistorySegment.failure(
                    "an item of unknown kind 0x\(String(bytes[bytes.startIndex + position - 1], radix: 16))")
            }
            let length = try varint()
            guard length <= bytes.count - position else { throw HistorySegment.failure("an item is cut short") }
            return (kind, length)
        }

        mutating func byte() -> UInt8 {
            defer { position += 1 }
            return bytes[bytes.startIndex + position]
        }

        mutating func varint() throws -> Int {
            var value = 0
            var shift = 0
            while true {
                guard position < bytes.count, shift < 63 else {
                    throw HistorySegment.failure("a varint is cut short or too long")
                }
                let byte = self.byte()
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        mutating func readDigest() throws -> ObjectDigest {
            let start = position
            guard bytes.count - start >= 64,
                let digest = bytes.withUnsafeBytes({
                    ObjectDigest(hexBytes: UnsafeRawBufferPointer(rebasing: $0[start..<(start + 64)]))
                })
            else { throw HistorySegment.failure("a digest is not 64 lowercase hex digits") }
            position += 64
            return digest
        }

        mutating func rest() -> Data {
            defer { position = bytes.count }
            return bytes.subdata(in: (bytes.startIndex + position)..<bytes.endIndex)
        }

        mutating func object() throws -> ObjectItem {
            if position < bytes.count, bytes[bytes.startIndex + position] == StorageCode.hashed.rawValue {
                position += 1
                let data = rest()
                return ObjectItem(
                    digest: ObjectDigest.of(data), size: UInt64(data.count), storage: .identity(data),
                    foundByPlace: true)
            }
            let digest = try readDigest()
            guard position < bytes.count, let code = StorageCode(rawValue: byte()) else {
                throw HistorySegment.failure("object \(digest.short) has an unknown storage")
            }
            let size = UInt64(try varint())
            switch code {
            case .identity:
                let data = rest()
                guard UInt64(data.count) == size else {
                    throw HistorySegment.failure("object \(digest.short) holds \(data.count) bytes, not \(size)")
                }
                return ObjectItem(digest: digest, size: size, storage: .identity(data))
            case .delta:
                let base = try readDigest()
                return ObjectItem(digest: digest, size: size, storage: .delta(base: base, program: rest()))
            case .entry:
                guard position < bytes.count, let stored = StorageCode(rawValue: byte()), stored != .entry else {
                    throw HistorySegment.failure("object \(digest.short) is stored alone with an unknown codec")
                }
                let storedSize = UInt64(try varint())
                let base = stored == .delta ? try readDigest() : nil
                let codec: ObjectCodec = stored == .zstd ? .zstd : stored == .delta ? .delta : .identity
                return ObjectItem(
                    digest: digest, size: size, storage: .entry(codec: codec, storedSize: storedSize, base: base))
            case .zstd, .hashed:
                throw HistorySegment.failure("object \(digest.short) has a storage that cannot follow a digest")
            }
        }
    }
}

/// Reads little-endian integers front to back; the caller knows the bytes are there.
struct LittleEndianCursor {
    let data: Data
    var position = 0

    init(_ data: Data) { self.data = data }

    mutating func bytes(_ count: Int) -> [UInt8] {
        defer { position += count }
        return Array(data[(data.startIndex + position)..<(data.startIndex + position + count)])
    }

    mutating func u32() -> UInt32 {
        UInt32(littleEndian: bytes(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
    }
    mutating func u64() -> UInt64 {
        UInt64(littleEndian: bytes(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
    }
}

extension HistorySegment.Reader {
    /// The segment that is the data of `entry` in `zip`, read a part at a time; the
    /// entry's local header is checked once, here.
    package init(entry: StoredZipEntry, in zip: StoredZipReader) throws {
        try zip.verifyLocalHeader(entry)
        try self.init(length: entry.size, identify: BundleVersion.id(ofSegmentRecord:)) { offset, length in
            try zip.readRange(of: entry, offset: offset, length: length)
        }
    }
}

extension HistorySegment.Reader {
    /// The segment held in memory as `data`: one a save has just built.
    package init(data: Data, identify: @escaping @Sendable (Data) throws -> VersionID) throws {
        try self.init(length: UInt64(data.count), identify: identify) { offset, length in
            data.subdata(in: Int(offset)..<min(Int(offset) + length, data.count))
        }
    }
}
