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

        package init(firstPlace: UInt64) {
            self.firstPlace = firstPlace
        }

        /// Adds `item` after those added before.
        package mutating func append(_ item: Item) throws {
            var bytes: [UInt8] = []
            let kind: Kind
            switch item {
            case .version(let id, let record):
                kind = .version
                bytes = Array(record)
                versions.append((HistorySegment.prefix(ofHex: id), nextLocation))
            case .object(let object):
                kind = .object
                bytes = Self.encode(object)
                objects.append((HistorySegment.prefix(ofHex: object.digest.hex), nextLocation))
            case .pruned(let id):
                kind = .pruned
                bytes = Array(id.utf8)
                prunedCount += 1
            }
            if !block.isEmpty, block.count + bytes.count + 10 > HistorySegment.blockSize {
                try closeBlock()
                // The row was taken before the block closed: it is the next block's start.
                switch kind {
                case .version: versions[versions.count - 1].at = nextLocation
                case .object: objects[objects.count - 1].at = nextLocation
                case .pruned: break
                }
            }
            block.append(kind.rawValue)
            ObjectDelta.appendVarint(bytes.count, to: &block)
            block += bytes
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
        }

        /// The segment's bytes.
        package mutating func finish() throws -> Data {
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
            for count in [UInt32(blocks.count), UInt32(versions.count), UInt32(objects.count), prunedCount] { Self.append(count, to: &output) }
            Self.append(firstPlace, to: &output)
            Self.append(indexOffset, to: &output)
            Self.append(UInt64(index.count), to: &output)
            Self.append(crc.value, to: &output)
            return Data(output)
        }

        /// An object item's payload.
        private static func encode(_ object: ObjectItem) -> [UInt8] {
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
                bytes.append(codec == .zstd ? StorageCode.zstd.rawValue : codec == .delta ? StorageCode.delta.rawValue : StorageCode.identity.rawValue)
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
