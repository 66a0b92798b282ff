import DocumentKitCore
import Foundation

/// Refuses JSON nested deeper than a limit before any recursive parser sees it, so a
/// hostile `[[[[…` cannot exhaust the stack.
package enum JSONDepth {
    /// The nesting DocumentKit accepts in a document or manifest.
    package static let defaultLimit = 256  // also the default of `JSONValue.parse(_:depthLimit:)`

    package static func check(_ data: Data, limit: Int) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            // Locals of the closure, not captured from outside it: the loop keeps them in
            // registers rather than in boxes it must load and store for every byte.
            var depth = 0
            var inString = false
            var escaped = false
            for byte in bytes {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 0x5C {
                        escaped = true
                    } else if byte == 0x22 {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case 0x22: inString = true
                case 0x5B, 0x7B:
                    depth += 1
                    if depth > limit {
                        throw DocumentKitError(.malformedInput, "JSON is nested more than \(limit) levels deep")
                    }
                case 0x5D, 0x7D: depth -= 1
                default: break
                }
            }
        }
    }
}
