import DocumentKitCore
import Foundation

extension BundleHistory {
    /// The names of the entries `objects/…` that hold the objects the history stores
    /// alone, sorted: those whose newest items say so (an object stored again as an item
    /// leaves its old entry superseded). Every block is read once.
    package func aloneObjectEntryNames() throws -> [String] {
        var alone = Set<String>()
        for segment in segments {
            for block in 0..<segment.reader.blockCount {
                let items = try Self.inSegment(segment.name) {
                    try segment.reader.items(inBlock: block, identified: false)
                }
                for case .object(let object) in items {
                    if case .entry = object.storage {
                        alone.insert(object.digest.entryName)
                    } else {
                        alone.remove(object.digest.entryName)
                    }
                }
            }
        }
        return alone.sorted()
    }
}
