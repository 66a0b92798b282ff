#if canImport(Glibc)
    import Glibc
#endif

/// Hands memory that was freed back to the system between the phases of a large edit.
///
/// A parsed multi-megabyte document is hundreds of thousands of small blocks. Once freed,
/// glibc keeps them for reuse, but the next phase (encoding) wants large contiguous
/// buffers that those blocks cannot serve, so without this the peak resident size is the
/// sum of both phases instead of the larger one.
package enum MemoryPressure {
    package static func releaseFreedMemory() {
        #if canImport(Glibc)
            // glibc's malloc_trim(3) is not in Swift's Glibc module (malloc.h is not imported);
            // look it up and call it with the C calling convention.
            typealias Trim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
                _ = unsafeBitCast(symbol, to: Trim.self)(0)
            }
        #endif
    }
}
