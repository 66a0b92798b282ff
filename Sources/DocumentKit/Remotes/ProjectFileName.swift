import Foundation

/// The file name a clone without an output takes: the project's own name (the head
/// document's top-level `name`) with its content type's extension, `Garden.dkproj`, as
/// `git clone URL` names the folder after what it clones.
enum ProjectFileName {
    /// `NAME.EXT` for the document `document` of `contentType`: the name made safe as one
    /// file name (no `/`, no leading `.`, no control characters, at most 100 characters),
    /// `project` when the document has no name; the extension the registered content type
    /// prefers, else `dkbundle`.
    static func forDocument(_ document: Data, contentType: String) -> String {
        var name = "project"
        if case .object(let members)? = try? JSONValue.parse(document), case .string(let text)? = members["name"] {
            let safe = String(
                text.unicodeScalars.map {
                    $0 == "/" || $0 == "\\" || CharacterSet.controlCharacters.contains($0) ? "-" : Character($0)
                }
            )
            .trimmingCharacters(in: .whitespaces)
            let trimmed = String(safe.drop { $0 == "." }.prefix(100)).trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { name = trimmed }
        }
        let type = DocumentKitConfiguration.current.contentTypes.type(identifier: contentType)
        return "\(name).\(type?.filenameExtensions.first ?? ContentType.documentBundle.filenameExtensions[0])"
    }
}
