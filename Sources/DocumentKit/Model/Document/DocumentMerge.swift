import Foundation

/// What merging two edits of a document made: the merged document when nothing
/// conflicts, else every conflict, with its path and values.
public struct DocumentMerge<Document: CodableDocument> {
    /// The merged document; `nil` when there are conflicts.
    public var merged: Document?
    /// The values both sides changed differently, then the rules the merge would break.
    public var conflicts: [JSONMerge.Conflict]
}
