import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension ObjectDelta {
    /// A program that rebuilds `target` from `base` (FORMAT.md §4.1).
    ///
    /// Matching works as in git's and xdelta's delta encoders: the base's aligned 16-byte
    /// blocks go into a hash table, every window of the target is looked up in it, and a
    /// block found is verified and extended forwards and backwards; runs of at least
    /// ``minimumCopy`` bytes become COPY instructions, everything else ADD. Time is linear
    /// when the inputs are nearly the same (the scan jumps over each match), and bounded
    /// by ``maximumCandidates`` lookups per byte when they are not; an unrelated target
    /// gives a single ADD, its size plus a few bytes.
    package static func encode(target: Data, base: Data) -> Data {
        WorkMeter.count(.deltaBytes, target.count + base.count)
        var program = magic
        appendVarint(base.count, to: &program)
        appendVarint(target.count, to: &program)
        target.withUnsafeBytes { target in
            base.withUnsafeBytes { base in
                var encoder = DeltaEncoder(target: target, base: base, program: program)
                encoder.encode()
                program = encoder.program
            }
        }
        return Data(program)
    }

    /// The shortest match worth a COPY: shorter ones cost about as much as their literal
    /// bytes once the program is compressed.
    package static let minimumCopy = 32
    /// How many base blocks with a window's hash are verified. Repetitive bases (runs of
    /// spaces) put many blocks in one bucket; looking at all of them would be quadratic.
    package static let maximumCandidates = 8
    /// The longest run of changed bytes encoded as one ADD between the inputs' common start
    /// and end without matching it against the base: a few records' text, little enough
    /// that matching parts of it would not make the compressed program much smaller.
    package static let smallChange = 4096
}

/// The base's aligned blocks, by the hash of their bytes: a bucket array of chain heads
/// and a chain link per block, both `Int32` block numbers (-1 ends a chain).
private struct DeltaBlockIndex {
    static let blockSize = 16

    let heads: [Int32]
    let links: [Int32]
    let shift: Int

    init(_ base: UnsafeRawBufferPointer) {
        // Block numbers are `Int32`: a base past 32 GiB is indexed only in its first 32 GiB.
        let blockCount = min(base.count / Self.blockSize, Int(Int32.max))
        let bucketBits = max(1, Int.bitWidth - max(blockCount - 1, 1).leadingZeroBitCount)
        shift = UInt64.bitWidth - bucketBits
        var heads = [Int32](repeating: -1, count: 1 << bucketBits)
        var links = [Int32](repeating: -1, count: blockCount)
        // Inserted last to first, so each chain lists its blocks in base order.
        for block in stride(from: blockCount - 1, through: 0, by: -1) {
            let bucket = Self.bucket(of: base.baseAddress.unsafelyUnwrapped + block * Self.blockSize, shift: shift)
            links[block] = heads[bucket]
            heads[bucket] = Int32(block)
        }
        self.heads = heads
        self.links = links
    }

    /// The bucket of the 16 bytes at `bytes`. Two 64-bit loads and multiplies hash a
    /// window directly, as cheaply as rolling a hash one byte on would.
    @inline(__always)
    static func bucket(of bytes: UnsafeRawPointer, shift: Int) -> Int {
        let low = bytes.loadUnaligned(as: UInt64.self)
        let high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let spread = high &* 0xC2B2_AE3D_27D4_EB4F
        let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ (spread >> 31 | spread << 33)
        return Int(truncatingIfNeeded: (mixed &* 0x1656_67B1_9E37_79F9) >> UInt64(shift))
    }
}

/// One encoding: scans the target left to right, emitting COPY for matches and ADD for
/// the literal bytes between them.
struct DeltaEncoder {
    let target: UnsafeRawBufferPointer
    let base: UnsafeRawBufferPointer
    var program: [UInt8]

    init(target: UnsafeRawBufferPointer, base: UnsafeRawBufferPointer, program: [UInt8]) {
        self.target = target
        self.base = base
        self.program = program
    }

    mutating func encode() {
        let blockSize = DeltaBlockIndex.blockSize
        guard base.count >= blockSize, target.count >= blockSize else {
            appendAdd(0..<target.count)
            return
        }
        if encodeAroundChanges() { return }
        let index = DeltaBlockIndex(base)
        let targetStart = target.baseAddress.unsafelyUnwrapped
        let baseStart = base.baseAddress.unsafelyUnwrapped
        var position = 0
        var literalStart = 0
        index.heads.withUnsafeBufferPointer { heads in
            index.links.withUnsafeBufferPointer { links in
                while position <= target.count - blockSize {
                    let window = targetStart + position
                    var block = heads[DeltaBlockIndex.bucket(of: window, shift: index.shift)]
                    var best = (start: 0, backward: 0, forward: 0)
                    var candidates = 0
                    while block >= 0, candidates < ObjectDelta.maximumCandidates {
                        candidates += 1
                        let offset = Int(block) * blockSize
                        block = links[Int(block)]
                        guard Self.sameBlock(baseStart + offset, window) else { continue }
                        let forward =
                            blockSize
                            + Self.commonPrefix(
                                baseStart + offset + blockSize, window + blockSize,
                                limit: min(base.count - offset, target.count - position) - blockSize)
                        let backward = Self.commonSuffix(
                            before: baseStart + offset, window, limit: min(offset, position - literalStart))
                        if backward + forward > best.backward + best.forward { best = (offset, backward, forward) }
                        if position + forward == target.count { break }
                    }
                    guard best.backward + best.forward >= ObjectDelta.minimumCopy else {
                        position += 1
                        continue
                    }
                    appendAdd(literalStart..<position - best.backward)
                    appendCopy(offset: best.start - best.backward, length: best.backward + best.forward)
                    position += best.forward
                    literalStart = position
                }
            }
        }
        appendAdd(literalStart..<target.count)
    }

    mutating func appendAdd(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        program.append(ObjectDelta.Opcode.add.rawValue)
        ObjectDelta.appendVarint(range.count, to: &program)
        program.append(contentsOf: UnsafeRawBufferPointer(rebasing: target[range]))
    }

    mutating func appendCopy(offset: Int, length: Int) {
        program.append(ObjectDelta.Opcode.copy.rawValue)
        ObjectDelta.appendVarint(offset, to: &program)
        ObjectDelta.appendVarint(length, to: &program)
    }

    @inline(__always)
    private static func sameBlock(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
            && a.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    /// How many bytes at `a` and `b` agree, up to `limit`, compared eight at a time:
    /// matches between near-identical inputs run for megabytes.
    static func commonPrefix(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, limit: Int) -> Int {
        var count = 0
        while count + 8 <= limit {
            let difference =
                a.loadUnaligned(fromByteOffset: count, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: count, as: UInt64.self)
            // In memory order, the first differing byte is the lowest one in little-endian.
            if difference != 0 { return count + difference.littleEndian.trailingZeroBitCount / 8 }
            count += 8
        }
        while count < limit,
            a.load(fromByteOffset: count, as: UInt8.self) == b.load(fromByteOffset: count, as: UInt8.self)
        { count += 1 }
        return count
    }

    /// `commonPrefix` for ends that may agree for megabytes: whole pages are compared by
    /// `memcmp` (vectorized, several times faster than eight bytes at a time) until one
    /// differs, and only that one byte by byte.
    static func longCommonPrefix(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, limit: Int) -> Int {
        var count = 0
        while count + longChunk <= limit, memcmp(a + count, b + count, longChunk) == 0 { count += longChunk }
        return count + commonPrefix(a + count, b + count, limit: limit - count)
    }

    /// `commonSuffix` for ends that may agree for megabytes, as `longCommonPrefix`.
    static func longCommonSuffix(before a: UnsafeRawPointer, _ b: UnsafeRawPointer, limit: Int) -> Int {
        var count = 0
        while count + longChunk <= limit, memcmp(a - count - longChunk, b - count - longChunk, longChunk) == 0 {
            count += longChunk
        }
        return count + commonSuffix(before: a - count, b - count, limit: limit - count)
    }

    private static let longChunk = 4096

    /// How many bytes just before `a` and `b` agree, up to `limit`, compared eight at a
    /// time while they agree.
    static func commonSuffix(before a: UnsafeRawPointer, _ b: UnsafeRawPointer, limit: Int) -> Int {
        var count = 0
        while count + 8 <= limit {
            let difference =
                a.loadUnaligned(fromByteOffset: -count - 8, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: -count - 8, as: UInt64.self)
            // In memory order, the last differing byte is the highest one in little-endian.
            if difference != 0 { return count + difference.littleEndian.leadingZeroBitCount / 8 }
            count += 8
        }
        while count < limit,
            a.load(fromByteOffset: -count - 1, as: UInt8.self) == b.load(fromByteOffset: -count - 1, as: UInt8.self)
        { count += 1 }
        return count
    }
}
