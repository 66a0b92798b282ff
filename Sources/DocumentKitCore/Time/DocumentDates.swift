import Foundation

/// How DocumentKit writes and reads times, and where "now" comes from.
///
/// Times are UTC with whole seconds, `2026-11-22T09:30:00Z`, so that they read the same
/// on every machine and survive a JSON round trip exactly.
public enum DocumentDates {
    /// Now, rounded down to a whole second, or the configuration's
    /// ``DocumentKitConfiguration/fixedNow`` when it has one.
    public static func now() -> Date {
        if let fixed = DocumentKitConfiguration.current.fixedNow { return fixed }
        return Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// `2026-11-22T09:30:00Z`.
    public static func format(_ date: Date) -> String {
        var seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        seconds = 0
        // Spelled digit by digit: `String(format:)` took longer than hashing the record a
        // version's date is part of, and every record read spells its date.
        var text: [UInt8] = []
        text.reserveCapacity(20)
        func append(_ value: Int, digits: Int, then separator: UInt8) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = max(value, 0)
            // A year past 9999 keeps all its digits, as "%04d" did.
            while rest / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
            text.append(separator)
        }
        append(Int(parts.tm_year) + 1900, digits: 4, then: UInt8(ascii: "-"))
        append(Int(parts.tm_mon) + 1, digits: 2, then: UInt8(ascii: "-"))
        append(Int(parts.tm_mday), digits: 2, then: UInt8(ascii: "T"))
        append(Int(parts.tm_hour), digits: 2, then: UInt8(ascii: ":"))
        append(Int(parts.tm_min), digits: 2, then: UInt8(ascii: ":"))
        append(Int(parts.tm_sec), digits: 2, then: UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses `2026-11-22T09:30:00Z`, with optional fractional seconds or a `±hh:mm`
    /// offset, or a plain date `2026-11-22` (midnight UTC).
    public static func parse(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for index in range {
                let byte = scalars[index]
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), scalars.count >= 10, scalars[4] == 0x2D, let month = number(5..<7),
            scalars[7] == 0x2D, let day = number(8..<10), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if scalars.count > 10 {
            guard scalars[10] == 0x54 || scalars[10] == 0x74 || scalars[10] == 0x20,
                let h = number(11..<13), scalars.count > 13, scalars[13] == 0x3A, let m = number(14..<16),
                scalars.count > 16, scalars[16] == 0x3A, let s = number(17..<19),
                h < 24, m < 60, s < 61
            else { return nil }
            (hour, minute, second) = (h, m, s)
            var index = 19
            if index < scalars.count, scalars[index] == 0x2E {
                index += 1
                while index < scalars.count, (0x30...0x39).contains(scalars[index]) { index += 1 }
            }
            guard index < scalars.count else { return nil }
            switch scalars[index] {
            case 0x5A, 0x7A: guard index + 1 == scalars.count else { return nil }
            case 0x2B, 0x2D:
                guard scalars.count == index + 6, let oh = number(index + 1..<index + 3), scalars[index + 3] == 0x3A,
                    let om = number(index + 4..<index + 6)
                else { return nil }
                offset = (oh * 3600 + om * 60) * (scalars[index] == 0x2B ? 1 : -1)
            default: return nil
            }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(Int64(seconds) - Int64(offset)))
    }

    /// A JSON decoder that reads the times `CanonicalJSONEncoder` writes (and plain dates).
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not a date (use 2026-11-22 or 2026-11-22T09:30:00Z)")
            }
            return date
        }
        return decoder
    }
}
