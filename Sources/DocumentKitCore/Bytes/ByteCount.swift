import Foundation

/// Byte counts as people read them, in docctl's lines and in an HTML export alike.
public enum ByteCount {
    /// `512 B`, `5.9 KB`, `1.2 MB`: powers of 1000, one decimal.
    public static func readable(_ count: UInt64) -> String {
        if count < 1000 { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}
