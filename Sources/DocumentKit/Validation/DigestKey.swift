import DocumentKitCore

/// The first 128 bits of a SHA-256 digest, as two words: how `validate` holds the ids and
/// object digests of a long history in sets, 16 bytes each where a digest's hex text is a
/// heap string of 64. Two digests that agree in 128 bits are taken for one; finding two
/// such SHA-256 digests is beyond any computer, as git's abbreviations rely on for less.
struct DigestKey: Hashable {
    private let high: UInt64
    private let low: UInt64

    init(_ digest: ObjectDigest) {
        // An ObjectDigest holds 64 lowercase hex digits: the first 32 are the key.
        var hex = digest.hex
        (high, low) = hex.withUTF8 { digits in
            func word(_ start: Int) -> UInt64 {
                var value: UInt64 = 0
                for byte in digits[start..<start + 16] {
                    value = value << 4 | UInt64(byte <= 0x39 ? byte &- 0x30 : byte &- 0x61 &+ 10)
                }
                return value
            }
            return (word(0), word(16))
        }
    }
}
