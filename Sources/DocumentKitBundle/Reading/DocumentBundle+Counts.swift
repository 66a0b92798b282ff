import DocumentKitCore
import Foundation

extension DocumentBundle {
    /// How many versions the bundle holds, and its objects' count, bytes and stored bytes:
    /// from a format-3 manifest, which keeps them (FORMAT.md §12.1), without listing the
    /// history; counted from the listing in formats 1 and 2.
    package func counts() throws -> (versions: Int, objects: HistoryManifest.ObjectCounts) {
        if let history = history?.manifest { return (history.versions, history.objects) }
        let manifest = try manifest
        var objects = HistoryManifest.ObjectCounts()
        for record in manifest.objects.values { objects.add(record) }
        return (manifest.versions.count, objects)
    }
}
