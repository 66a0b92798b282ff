#if os(Linux)
    /// `mallopt(3)`, which Glibc's module map leaves out (malloc.h is not in it).
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// How a program has the C allocator treat large buffers: a choice for the whole process,
/// which a tool makes at its start (DocumentKit's layers never do).
package enum LargeAllocations {
    /// Buffers of `bytes` and more are mapped on their own and go straight back to the
    /// system when freed. glibc otherwise raises this threshold after the first such free,
    /// and each thread's arena then keeps the freed buffers: with the HTTP client's threads
    /// (a push's 8 MiB parts, its 4 MB chunks) a push of the big bench bundle peaked at
    /// 88 MiB instead of 57. The price is a mapping, and its page faults, per such buffer:
    /// a program that makes many (a delta chain's documents) should not pay it.
    package static func returnToSystem(atLeast bytes: Int32) {
        #if os(Linux)
            _ = glibcMallopt(-3, bytes)  // M_MMAP_THRESHOLD
        #endif
    }
}
