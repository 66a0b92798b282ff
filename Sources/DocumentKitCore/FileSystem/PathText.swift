import Foundation

/// Paths as text, without Foundation's `NSString` path methods:
/// `deletingLastPathComponent` traps on a one-character path (`"r"`) in
/// swift-corelibs-foundation, and a user may name a remote `r`.
package enum PathText {
    /// The path without its last component and the slashes before it: `a/b` → `a`,
    /// `a/b/` → `a`, `b` → `""`, `/b` → `/`.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
