import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// Objects from this size are compressed at zstd level 1 instead of 3: twice as fast
    /// for about 4% more bytes (a 7.8 MB project: 801 KB against 767 KB). The large new
    /// object of a save is nearly always the head's document, which the next save stores
    /// again as a small delta.
    package static let largeObject: UInt64 = 1 << 20

    /// The zstd level for an object of `size` bytes.
    package static func compressionLevel(forSize size: UInt64) -> Int { size >= largeObject ? 1 : 3 }

    /// Starts compressing `file` on another thread, when it is held in memory, at least
    /// ``largeObject`` and would be compressed: a save of a large document then compresses
    /// the new head's object while it hashes the document and writes `document.json`,
    /// instead of after. Started before the planner knows whether the object is new; a
    /// save that finds it stored already lets the thread finish unused.
    package static func startCompressing(_ file: FileWrapper?, compression: ObjectCompression) -> BackgroundWork<Data>?
    {
        guard compression == .zstd, case .data(let data)? = file?.contents,
            UInt64(data.count) >= largeObject, UInt64(data.count) <= inMemoryCompressionLimit
        else { return nil }
        let level = compressionLevel(forSize: UInt64(data.count))
        return BackgroundWork { try ZstdCodec.compress(data, level: level) }
    }
}
