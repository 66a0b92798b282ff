/// Bytes as lowercase hexadecimal text: how every digest DocumentKit writes is spelled
/// (object digests, OCFL's SHA-512s, BagIt's manifests, S3's signatures and MD5s).
package enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, written straight into the string's storage
    /// (spelling a digest one `String` per byte cost as much as hashing a version's
    /// 400-byte record).
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
