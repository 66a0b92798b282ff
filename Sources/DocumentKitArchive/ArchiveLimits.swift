import DocumentKitCore

/// Caps applied while reading archives, so that a hostile file cannot exhaust memory,
/// disk or time.
///
/// Entry counts, sizes and names are the attacker's to choose; these limits are checked
/// against the sizes an archive declares *and* against the bytes actually produced while
/// decompressing, before those bytes reach the caller.
///
/// ```swift
/// var limits = ArchiveLimits.default
/// limits.maxEntryBytes = 100 << 20   // 100 MiB per entry
/// let reader = try ArchiveReader(path: path, limits: limits)
/// ```
public struct ArchiveLimits: Sendable, Equatable {
    /// The most entries an archive may hold. Default: 1,000,000.
    public var maxEntries: Int
    /// The most bytes a single entry may hold once decompressed. Default: 64 GiB.
    public var maxEntryBytes: UInt64
    /// The most bytes all entries together may hold once decompressed. Default: 1 TiB.
    public var maxTotalBytes: UInt64
    /// The largest accepted ratio of decompressed to compressed bytes. Default: 1,000.
    ///
    /// It applies to entries of foreign archives, measured against the archive file's size,
    /// and to `ZstdCodec` callers that pass these limits. Output larger than
    /// `maxExpansionRatio × compressed + 1 MiB` is refused; the 1 MiB allowance keeps
    /// tiny, highly compressible inputs (a short run of zeros) legal. A bundle's zstd
    /// objects are bounded by the size their manifest records instead (an output buffer of
    /// exactly that size), since writers rightly make objects that compress further.
    public var maxExpansionRatio: UInt64

    /// Creates limits; every parameter defaults to the value of ``default``.
    public init(
        maxEntries: Int = 1_000_000,
        maxEntryBytes: UInt64 = 64 << 30,
        maxTotalBytes: UInt64 = 1 << 40,
        maxExpansionRatio: UInt64 = 1_000
    ) {
        self.maxEntries = maxEntries
        self.maxEntryBytes = maxEntryBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxExpansionRatio = maxExpansionRatio
    }

    /// 1,000,000 entries, 64 GiB per entry, 1 TiB in total, expansion up to 1,000:1.
    public static let `default` = ArchiveLimits()

    /// Output allowed on top of the ratio, so that small inputs are never refused.
    package static let expansionAllowance: UInt64 = 1 << 20

    /// The most bytes `compressedBytes` may expand to under ``maxExpansionRatio``.
    package func maxExpandedBytes(fromCompressed compressedBytes: UInt64) -> UInt64 {
        let (scaled, overflow) = compressedBytes.multipliedReportingOverflow(by: maxExpansionRatio)
        if overflow { return .max }
        let (total, overflow2) = scaled.addingReportingOverflow(Self.expansionAllowance)
        return overflow2 ? .max : total
    }
}
