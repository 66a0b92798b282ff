import DocumentKitCore
import Foundation

extension Array: JSONByteSink where Element == UInt8 {}

/// A growable byte buffer that becomes a `Data` without a copy. One writer at a time.
///
/// A document's text is megabytes: building it in an array and then copying it into a
/// `Data` would need twice that at the peak, and every doubling on the way copies it
/// again. This buffer reserves address space once with `mmap` (pages cost memory only
/// when written), so it never moves, and hands its pages to the `Data` it returns.
package final class JSONOutputBuffer: JSONByteSink {
    /// The address space reserved: far beyond any document DocumentKit decodes in memory
    /// (1 GiB), and free until written.
    package static let reservation = 4 << 30

    private var base: UnsafeMutablePointer<UInt8>?
    private var count = 0
    /// The bytes `base` can hold; `nil` when it is a reservation, not a heap block.
    private var heapCapacity: Int?

    package init() {
        if let mapping = LargeBuffer.reserve(Self.reservation) {
            base = mapping.assumingMemoryBound(to: UInt8.self)
        } else {
            // A system that refuses to overcommit: grow an ordinary heap block instead.
            heapCapacity = 1 << 16
            base = UnsafeMutablePointer<UInt8>(OpaquePointer(malloc(1 << 16)!))
        }
    }

    deinit {
        guard let base else { return }
        if heapCapacity == nil { LargeBuffer.release(base, Self.reservation) } else { free(base) }
    }

    private func reserve(_ extra: Int) {
        guard let capacity = heapCapacity else {
            precondition(count + extra <= Self.reservation, "JSON output is larger than \(Self.reservation) bytes")
            return
        }
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        base = UnsafeMutablePointer<UInt8>(OpaquePointer(realloc(base, grown)!))
        heapCapacity = grown
    }

    package func append(_ byte: UInt8) {
        reserve(1)
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    package func append<Bytes: Collection>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        let extra = bytes.count
        reserve(extra)
        let copied = UnsafeMutableBufferPointer(start: base.unsafelyUnwrapped + count, count: extra).initialize(
            from: bytes
        ).1
        count += copied
    }

    /// The bytes written, as `Data` that now owns this memory; the buffer is empty after.
    package func data() -> Data {
        guard let owned = base else { return Data() }
        base = nil
        if heapCapacity != nil { return Data(bytesNoCopy: owned, count: count, deallocator: .free) }
        return Data(
            bytesNoCopy: owned, count: count,
            deallocator: .custom { pointer, _ in
                LargeBuffer.release(pointer, JSONOutputBuffer.reservation)
            })
    }
}
