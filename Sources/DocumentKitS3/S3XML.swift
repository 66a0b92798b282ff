import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The few things DocumentKit reads from S3's XML answers: the text of named elements,
/// in document order, each with the name of the element around it. A flat reading is
/// enough for errors (`Code`, `Message`), listings (`Contents/Key`, `Size`, `ETag`,
/// `NextContinuationToken`) and multipart uploads (`UploadId`, `Part/PartNumber`).
final class S3XML: NSObject, XMLParserDelegate {
    /// Each element's text, with its parent's name: (parent, name, text).
    private(set) var elements: [(parent: String, name: String, text: String)] = []
    /// The name of the document's outermost element (`ListBucketResult`, `Error`).
    private(set) var root: String?
    /// Whether the whole text parsed: a body cut short or garbled does not.
    private(set) var isWhole = false
    private var stack: [String] = []
    private var text = ""

    static func parse(_ data: Data) -> S3XML {
        let reader = S3XML()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        reader.isWhole = parser.parse()
        return reader
    }

    /// The first text of element `name` (inside `parent`, when given).
    func first(_ name: String, in parent: String? = nil) -> String? {
        elements.first { $0.name == name && (parent == nil || $0.parent == parent) }?.text
    }

    /// Every text of element `name` inside `parent`, in order.
    func all(_ name: String, in parent: String) -> [String] {
        elements.filter { $0.name == name && $0.parent == parent }.map(\.text)
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if stack.isEmpty, root == nil { root = name }
        stack.append(name)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        elements.append((stack.last ?? "", name, text))
        text = ""
    }
}
