import DocumentKitArchive
import DocumentKitCore
import Foundation

extension HistorySegment {
    /// Builds one segment from its items, in order: blocks filled to `blockSize`, each
    /// compressed once, then the index and the trailer.
    package struct Builder {
        /// The place of the segment's first version.
        package let firstPlace: UInt64
        private var output: [UInt8] = HistorySegment.magic
        private var block: [UInt8] = []
        private var blocks: [(offset: UInt64, stored: UInt32, size: UInt32)] = []
        private var versions: [(prefix: UInt64, at: Location)] = []
        private var objects: [(prefix: UInt64, at: Location)] = []
        private var prunedCount: UInt32 = 0
        /// The digest of the last item of the open block, when it is an object.
        private var lastObject: ObjectDigest?
        /// An object found by place, waiting for the record it belongs before.
        private var heldObject: ObjectItem?

        package init(firstPlace: UInt64) {
            self.firstPlace = firstPlace
        }

        /// Adds `item` after those added before.
        ///
        /// An object found by place is held back until the item after it (its version's
        /// record) comes, and the two go into one block: a reader finds it as the item
        /// just before that record in the record's block, never at the end of the one before.
        package mutating func append(_ item: Item) throws {
            if case .object(let object) = item, object.foundByPlace {
                if let held = heldObject { try write(.object(held), reservingFor: 0) }
                heldObject = object
                return
            }
            if let held = heldObject {
                heldObject = nil
                try write(.object(held), reservingFor: Self.payload(item).1.count + 10)
            }
            try write(item, reservingFor: 0)
        }

        /// Writes `item` into the open block, or into a new one when it would not fit with
        /// `reserved` bytes more after it.
        private mutating func write(_ item: Item, reservingFor reserved: Int) throws {
            var (kind, bytes) = Self.payload(item)
            if !block.isEmpty, block.count + bytes.count + 10 + reserved > HistorySegment.blockSize {
                try closeBlock()
            }
            switch item {
            case .version(let id, let record):
                // A record names its tree, the item before it in the block: "^" says so.
                if let tree = lastObject, let short = HistorySegment.abbreviatingTree(in: record, as: tree) {
                    bytes = short
                }
                versions.append((HistorySegment.prefix(ofHex: id), nextLocation))
            case .object(let object):
                if !object.foundByPlace {
                    objects.append((HistorySegment.prefix(ofHex: object.digest.hex), nextLocation))
                }
            case .pruned:
                prunedCount += 1
            }
            block.append(kind.rawValue)
            ObjectDelta.appendVarint(bytes.count, to: &block)
            block += bytes
            if case .object(let object) = item { lastObject = object.digest } else { lastObject = nil }
        }

        /// An item's kind and payload.
        private static func payload(_ item: Item) -> (Kind, [UInt8]) {
            switch item {
            case .version(_, let record): (.version, Array(record))
            case .object(let object): (.object, encode(object))
            case .pruned(let id): (.pruned, Array(id.utf8))
            }
        }

        /// Where the next item goes.
        private var nextLocation: Location {
            Location(block: UInt32(blocks.count), offset: UInt32(block.count))
        }

        /// Compresses the open block and starts the next.
        private mutating func closeBlock() throws {
            let frame = try ZstdCodec.compress(Data(block))
            blocks.append((UInt64(output.count), UInt32(frame.count), UInt32(block.count)))
            output += frame
            block = []
            lastObject = nil
        }

        /// One segment holding the items of `segments` (oldest first, each following the
        /// one before it), re-blocked: byte for byte the segment a builder given all those
        /// items at once would write. What a save's merge writes.
        package static func merging(_ segments: [Reader]) throws -> Data {
            var builder = Builder(firstPlace: segments.first?.firstPlace ?? 1)
            for segment in segments {
                for item in try segment.items() { try builder.append(item) }
            }
            return try builder.finish()
        }

        /// The segment's bytes.
        package mutating func finish() throws -> Data {
            if let held = heldObject {
                heldObject = nil
                try write(.object(held), reservingFor: 0)
            }
            if !block.isEmpty { try closeBlock() }
            var index: [UInt8] = []
            for block in blocks {
                Self.append(block.offset, to: &index)
                Self.append(block.stored, to: &index)
                Self.append(block.size, to: &index)
            }
            for row in versions + objects.sorted(by: { $0.prefix < $1.prefix }) {
                Self.append(row.prefix, to: &index)
                Self.append(row.at.block, to: &index)
                Self.append(row.at.offset, to: &index)
            }
            let indexOffset = UInt64(output.count)
            output += index
            var crc = CRC32()
            index.withUnsafeBytes { crc.update($0) }
            output += HistorySegment.trailerMagic
            for count in [UInt32(blocks.count), UInt32(versions.count), UInt32(objects.count), prunedCount] {
                Self.append(count, to: &output)
            }
            Self.append(firstPlace, to: &output)
            Self.append(indexOffset, to: &output)
            Self.append(UInt64(index.count), to: &output)
            Self.append(crc.value, to: &output)
            return Data(output)
        }

        /// An object item's payload.
        private static func encode(_ object: ObjectItem) -> [UInt8] {
            // Found by place, its bytes at hand: the digest is theirs, and not written.
            if object.foundByPlace, case .identity(let data) = object.storage {
                return [StorageCode.hashed.rawValue] + Array(data)
            }
            var bytes = Array(object.digest.hex.utf8)
            switch object.storage {
            case .identity(let data):
                bytes.append(StorageCode.identity.rawValue)
                ObjectDelta.appendVarint(Int(object.size), to: &bytes)
                bytes += data
            case .delta(let base, let program):
                bytes.append(StorageCode.delta.rawValue)
                ObjectDelta.appendVarint(Int(object.size), to: &bytes)
                bytes += Array(base.hex.utf8)
                bytes += program
            case .entry(let codec, let storedSize, let base):
                bytes.append(StorageCode.entry.rawValue)
                ObjectDelta.appendVarint(Int(object.size), to: &bytes)
                bytes.append(
                    codec == .zstd
                        ? StorageCode.zstd.rawValue
                        : codec == .delta ? StorageCode.delta.rawValue : StorageCode.identity.rawValue)
                ObjectDelta.appendVarint(Int(storedSize), to: &bytes)
                if let base { bytes += Array(base.hex.utf8) }
            }
            return bytes
        }

        private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
    }
}
