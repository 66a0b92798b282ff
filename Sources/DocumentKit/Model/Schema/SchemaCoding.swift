import Foundation

/// How stages read and write a model: the decoder and encoder documents use, so models
/// see the same dates, identifiers and blob references as when the document is read.
package enum SchemaCoding {
    package static func decode<Model: Decodable>(_ type: Model.Type, from json: Data, context: DocumentDecodingContext)
        throws -> Model
    {
        try JSONDepth.check(json, limit: JSONDepth.defaultLimit)
        let decoder = DocumentDates.decoder()
        decoder.userInfo[.documentKitContext] = context
        return try decoder.decode(Model.self, from: json)
    }

    package static func encode<Model: Encodable>(_ value: Model) throws -> Data {
        try CanonicalJSONEncoder(pretty: false).encode(value)
    }
}
