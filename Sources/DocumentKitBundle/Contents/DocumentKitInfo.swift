import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// Facts about this build of DocumentKit.
public enum DocumentKitInfo {
    /// The library's version.
    public static let version = "0.3.0"
    /// What a version's `writer` field records.
    public static let writer = "DocumentKit \(version)"
}
