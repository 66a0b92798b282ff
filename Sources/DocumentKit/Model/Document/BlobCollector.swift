import Foundation

/// Gathers the blob references met while encoding a document, with their JSON paths.
///
/// Unchecked: one collector serves one encode, on one thread, like the encoder itself.
package final class BlobCollector: @unchecked Sendable {
    package var blobs: [(reference: BlobReference, path: String)] = []
}
