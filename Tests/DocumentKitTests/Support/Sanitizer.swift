import Foundation

/// The sanitizer the tests run under (`scripts/sanitize.sh`), for the few tests that must
/// adapt to one. Known by the runtime's entry point, which the instrumented test binary
/// exports; `nil` finds it in the binary or any library loaded.
enum Sanitizer {
    /// ThreadSanitizer: every memory access is checked, so byte-crunching loops run 20 to
    /// 100 times slower than in a plain debug build.
    static let thread = isLoaded("__tsan_init")
    /// AddressSanitizer.
    static let address = isLoaded("__asan_init")

    private static func isLoaded(_ symbol: String) -> Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
    }
}
