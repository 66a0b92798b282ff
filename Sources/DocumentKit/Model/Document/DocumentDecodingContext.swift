import Foundation

/// What a document's decoding may consult: the time "now" means, a generator of new
/// identifiers, and the bundle that blob references load from.
///
/// Types use it to complete what a user left out, e.g. a task given without an `id`:
///
/// ```swift
/// id = try container.decodeIfPresent(UUID.self, forKey: .id) ?? decoder.makeIdentifier()
/// ```
///
/// A context serves one decode at a time, like the decoder holding it (hence unchecked
/// `Sendable`, which `userInfo` requires).
public final class DocumentDecodingContext: @unchecked Sendable {
    /// The time to give fields a user left empty (honours `SOURCE_DATE_EPOCH`).
    public let now: Date
    package let objectSource: (any ObjectSource)?
    private let seed: String
    private var counter = 0

    /// `seed` makes new identifiers deterministic: the same seed and the same sequence
    /// of requests give the same identifiers, so replayed edits give identical bundles.
    public init(
        now: Date = DocumentDates.now(), seed: String = UUID().uuidString, objectSource: (any ObjectSource)? = nil
    ) {
        self.now = now
        self.seed = seed
        self.objectSource = objectSource
    }

    /// A new UUID derived from the seed (RFC 9562 version 8, name-based on SHA-256).
    public func makeIdentifier() -> UUID {
        counter += 1
        let digest = Array(ObjectDigest.of(Data("\(seed)#\(counter)".utf8)).hex.utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            bytes[index] = UInt8(hexValue(digest[index * 2]) << 4 | hexValue(digest[index * 2 + 1]))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private func hexValue(_ digit: UInt8) -> UInt8 {
        digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10
    }
}

extension Decoder {
    /// The decoding context DocumentKit provides, when decoding through DocumentKit.
    public var documentContext: DocumentDecodingContext? {
        userInfo[.documentKitContext] as? DocumentDecodingContext
    }

    /// A new identifier: deterministic under DocumentKit, random otherwise.
    public func makeIdentifier() -> UUID {
        documentContext?.makeIdentifier() ?? UUID()
    }

    /// "Now" under DocumentKit's clock.
    public var documentNow: Date {
        documentContext?.now ?? DocumentDates.now()
    }

    /// Throws if the JSON object being decoded has a key outside `known`, so that a typo
    /// such as `titel` is refused instead of silently dropped.
    public func rejectUnknownKeys(_ known: Set<String>) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription:
                        "unknown field '\(key.stringValue)' (known fields: \(known.sorted().joined(separator: ", ")))"))
        }
    }
}
