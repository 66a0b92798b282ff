import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// Where a manifest's members are, found by `ManifestScan`, as byte ranges of its text.
package struct ManifestLayout {
    /// Each top-level member's value, by name.
    package var members: [String: Range<Int>] = [:]
    /// Each version record's range and the range of its `id` string's bytes (`nil` when
    /// it has none without escapes).
    package var versions: [(id: Range<Int>?, range: Range<Int>)] = []
    /// How many ids `pruned` lists: the head's number is that plus its place.
    package var prunedCount = 0
}
