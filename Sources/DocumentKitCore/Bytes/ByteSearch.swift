import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding a byte string in a large buffer.
package enum ByteSearch {
    /// The offsets at which `needle` starts in `haystack`, overlapping ones included.
    ///
    /// Through the C library's `memmem` (a two-way search, gigabytes a second), looked up
    /// at run time because Swift's Glibc module does not import it (glibc declares it only
    /// under `_GNU_SOURCE`); a `memchr` for the first byte and a `memcmp` where that is
    /// missing. The fallback stops at every occurrence of the first byte, which in a JSON
    /// document full of ids, for a quoted id, is every string.
    package static func offsets(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> [Int] {
        guard let first = needle.first, haystack.count >= needle.count, let base = haystack.baseAddress else {
            return []
        }
        var found: [Int] = []
        needle.withUnsafeBytes { needle in
            var start = 0
            while start + needle.count <= haystack.count {
                let rest = haystack.count - start
                let hit: UnsafeMutableRawPointer?
                if let memmem = MemMem.function {
                    hit = memmem(base + start, rest, needle.baseAddress!, needle.count)
                } else {
                    hit = memchr(base + start, Int32(first), rest - needle.count + 1)
                }
                guard let hit else { break }
                let offset = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, needle.baseAddress!, needle.count) == 0 { found.append(offset) }
                start = offset + 1
            }
        }
        return found
    }

    /// The range of `data`'s indices where `needle` first occurs; `nil` when it does not.
    /// Foundation's `Data.range(of:)` compares byte by byte through generic slices: on a
    /// history segment's records it was a tenth of what `validate` spent reading them.
    package static func firstRange(of needle: [UInt8], in data: Data) -> Range<Data.Index>? {
        guard let first = needle.first, data.count >= needle.count else { return nil }
        return data.withUnsafeBytes { haystack -> Range<Data.Index>? in
            let base = haystack.baseAddress!
            var start = 0
            while start + needle.count <= haystack.count {
                guard let hit = memchr(base + start, Int32(first), haystack.count - needle.count - start + 1) else {
                    return nil
                }
                let offset = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, needle, needle.count) == 0 {
                    return (data.startIndex + offset)..<(data.startIndex + offset + needle.count)
                }
                start = offset + 1
            }
            return nil
        }
    }
}

/// `memmem(3)`, looked up at run time.
private enum MemMem {
    typealias Function = @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?

    static let function: Function? = {
        // A null handle is RTLD_DEFAULT: search the libraries already loaded.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memmem") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
