import CArchive

/// zlib, which libarchive links and CArchive's shim exposes: its CRC-32, for ``CRC32``.
///
/// It exists so that CArchive is imported in this folder alone: ``CRC32`` computes through
/// it and imports no C.
enum Zlib {
    /// zlib's `crc32`: the CRC-32 `value` of the bytes so far, continued over the `count`
    /// bytes at `bytes`.
    static func crc32(continuing value: UInt32, _ bytes: UnsafePointer<UInt8>, count: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: CArchive.crc32(UInt(value), bytes, count))
    }
}
