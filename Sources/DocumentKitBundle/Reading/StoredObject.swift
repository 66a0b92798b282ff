import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// An object as a bundle stores it: its record, and where its stored bytes are.
package struct StoredObject {
    package enum Location {
        /// An entry `objects/…` of the zip holds the stored bytes.
        case entry(StoredZipEntry)
        /// A format-3 history segment holds them in an item (FORMAT.md §12.2): the
        /// object's bytes, or a delta program not compressed (its block was).
        case item(Data)
    }

    package var record: ObjectRecord
    package var location: Location
    /// The index of the history segment whose item holds the object, when one does: where
    /// the search for its base starts (``BundleHistory/object(_:searchingFrom:)``).
    package var segment: Int? = nil

    /// The entry holding the object, if one does.
    package var entry: StoredZipEntry? {
        if case .entry(let entry) = location { entry } else { nil }
    }
}
