import DocumentKitCore

/// A SHA-256 digest as four words: how `validate` holds the digests of a long history in
/// sets (32 bytes each, where a digest's hex text is a heap string of 64).
struct DigestKey: Hashable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ digest: ObjectDigest) {
        // An ObjectDigest holds 64 lowercase hex digits: four words of sixteen.
        var hex = digest.hex
        words = hex.withUTF8 { digits in
            func word(_ start: Int) -> UInt64 {
                var value: UInt64 = 0
                for byte in digits[start..<start + 16] {
                    value = value << 4 | UInt64(byte <= 0x39 ? byte &- 0x30 : byte &- 0x61 &+ 10)
                }
                return value
            }
            return (word(0), word(16), word(32), word(48))
        }
    }

    static func == (lhs: DigestKey, rhs: DigestKey) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
