import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Buffers of many megabytes (a document read whole, a spliced document), each in its
/// own mapping with transparent huge pages asked for (madvise(2), `MADV_HUGEPAGE`).
///
/// Touching a fresh 8 MB buffer page by page costs 2,000 page faults, about as much as
/// reading or hashing it; in 2 MiB pages it costs four. Smaller buffers, and systems
/// without the advice, get memory as usual.
package enum LargeBuffer {
    /// The size from which a buffer gets its own mapping.
    package static let threshold = 4 << 20
    private static let hugePage = 2 << 20

    /// Reserves `bytes` of address space, readable and writable, that cost memory only as
    /// they are written (`MAP_NORESERVE`); `nil` on a system that refuses to overcommit.
    package static func reserve(_ bytes: Int) -> UnsafeMutableRawPointer? {
        let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let mapping, mapping != MAP_FAILED else { return nil }
        return mapping
    }

    /// Gives back a reservation of `bytes` made by ``reserve(_:)``.
    package static func release(_ pointer: UnsafeMutableRawPointer, _ bytes: Int) {
        _ = munmap(pointer, bytes)
    }

    /// `count` zero bytes.
    package static func zeroed(count: Int) -> Data {
        guard count >= threshold else { return Data(count: count) }
        #if canImport(Glibc)
            // Huge pages need 2 MiB alignment, which mmap does not promise: map a page more
            // and give back what lies before and after the aligned part.
            let length = (count + hugePage - 1) / hugePage * hugePage
            guard
                let mapping = mmap(nil, length + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                mapping != MAP_FAILED
            else { return Data(count: count) }
            let address = UInt(bitPattern: mapping)
            let aligned = (address + UInt(hugePage) - 1) / UInt(hugePage) * UInt(hugePage)
            let head = Int(aligned - address)
            if head > 0 { _ = munmap(mapping, head) }
            if hugePage - head > 0 { _ = munmap(mapping + head + length, hugePage - head) }
            let buffer = mapping + head
            _ = madvise(buffer, length, Int32(MADV_HUGEPAGE))
            return Data(
                bytesNoCopy: buffer, count: count, deallocator: .custom { pointer, _ in _ = munmap(pointer, length) })
        #else
            return Data(count: count)
        #endif
    }
}
