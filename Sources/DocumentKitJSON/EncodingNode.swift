import DocumentKitCore
import Foundation

/// One value being encoded: its text, the members a container is filling in, or a value
/// whose encoding waits until the output reaches it.
package final class EncodingNode {
    package enum Content {
        case empty
        case text([UInt8])
        case object([(key: String, node: EncodingNode)])
        case array([EncodingNode])
        case pending(() throws -> EncodingNode)
    }

    package var content: Content = .empty
    package let depth: Int
    /// Where each key is among an object's members, once it has more than a few: filling
    /// an object of n members (a manifest's table of objects, a dictionary) then costs n
    /// lookups, not the n²/2 key comparisons of a search per key.
    private var memberPositions: [String: Int] = [:]

    package init(depth: Int) { self.depth = depth }

    /// Sets the member `key` of this object node to `child`, replacing one with that key.
    package func setMember(_ child: EncodingNode, forKey key: String) {
        guard case .object(var members) = content else { return }
        content = .empty  // let `members` be the only reference while it changes
        if let index = position(ofMember: key, in: members) {
            members[index].node = child
        } else {
            members.append((key, child))
            if !memberPositions.isEmpty { memberPositions[key] = members.count - 1 }
        }
        content = .object(members)
    }

    private func position(ofMember key: String, in members: [(key: String, node: EncodingNode)]) -> Int? {
        guard members.count > 8 else {
            WorkMeter.count(.encoderSteps, members.count)
            return members.firstIndex { $0.key == key }
        }
        if memberPositions.isEmpty {
            memberPositions.reserveCapacity(members.count * 2)
            for (index, member) in members.enumerated() { memberPositions[member.key] = index }
        }
        WorkMeter.count(.encoderSteps)
        return memberPositions[key]
    }

    /// A node that encodes `value` at `depth` only when it is written out.
    package static func pending<T: Encodable>(
        _ value: T, depth: Int, codingPath: [any CodingKey], options: EncodingOptions
    ) -> EncodingNode {
        let node = EncodingNode(depth: depth)
        node.content = .pending { try encode(value, depth: depth, codingPath: codingPath, options: options) }
        return node
    }

    /// Encodes `value` into a new node at `depth`.
    package static func encode<T: Encodable>(
        _ value: T, depth: Int, codingPath: [any CodingKey], options: EncodingOptions
    ) throws -> EncodingNode {
        let node = EncodingNode(depth: depth)
        if let text = try scalarText(value, codingPath: codingPath) {
            node.content = .text(text)
            return node
        }
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, options: options))
        return node
    }

    /// The types JSON writes as scalars rather than through their own `encode(to:)`.
    private static func scalarText(_ value: Any, codingPath: [any CodingKey]) throws -> [UInt8]? {
        switch value {
        case let date as Date: return stringText(DocumentDates.format(date))
        case let url as URL: return stringText(url.absoluteString)
        case let data as Data: return stringText(data.base64EncodedString())
        case let string as String: return stringText(string)
        case let double as Double: return try numberText(double, codingPath: codingPath)
        default: return nil
        }
    }

    package static func stringText(_ value: String) -> [UInt8] {
        var output: [UInt8] = []
        JSONText.appendString(value, to: &output)
        return output
    }

    package static func numberText(_ value: Double, codingPath: [any CodingKey]) throws -> [UInt8] {
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as JSON"))
        }
        return Array(text.utf8)
    }

    /// Writes the node's text into `output`: pending members are encoded now, in key
    /// order, and their text is gone again once written.
    package func append(to output: inout some JSONByteSink, pretty: Bool) throws {
        switch content {
        case .empty: output.append(contentsOf: "{}".utf8)
        case .text(let text): output.append(contentsOf: text)
        case .pending(let encode): try encode().append(to: &output, pretty: pretty)
        case .object(let members):
            try JSONText.appendObject(members.map { ($0.key, $0.node) }, to: &output, pretty: pretty, indent: depth) {
                node, output in
                try node.append(to: &output, pretty: pretty)
            }
        case .array(let elements):
            try JSONText.appendArray(elements, to: &output, pretty: pretty, indent: depth) { node, output in
                try node.append(to: &output, pretty: pretty)
            }
        }
    }
}
