import Foundation

/// Media types guessed from filename extensions, for attached files.
public enum MediaTypes {
    /// The MIME type for `url`'s extension, or `application/octet-stream`.
    public static func guess(for url: URL) -> String {
        let known: [String: String] = [
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
            "svg": "image/svg+xml", "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown",
            "json": "application/json", "csv": "text/csv", "html": "text/html", "zip": "application/zip"
        ]
        return known[url.pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
