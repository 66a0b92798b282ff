import Foundation

extension UUID {
    /// The UUID `text` spells (`6F9619FF-8B86-D011-B42D-00C04FC964FF`, either case), read
    /// digit by digit: `UUID(uuidString:)` goes through `sscanf`, which made reading the
    /// ids of 20,000 records cost more than parsing them.
    init?(text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed: Bool = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { output in
                var input = 0
                for index in 0..<16 {
                    if input == 8 || input == 13 || input == 18 || input == 23 {
                        guard utf8[input] == UInt8(ascii: "-") else { return false }
                        input += 1
                    }
                    guard let high = Self.hexValue(utf8[input]), let low = Self.hexValue(utf8[input + 1]) else { return false }
                    output[index] = high << 4 | low
                    input += 2
                }
                return true
            }
        } ?? false
        guard parsed else {
            guard let uuid = UUID(uuidString: text) else { return nil }
            self = uuid
            return
        }
        self.init(uuid: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
