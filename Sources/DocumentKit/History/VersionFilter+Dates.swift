import Foundation

extension VersionFilter {
    /// The time `text` names, for `since` and `until`: an ISO 8601 date (`2026-03-01`, a
    /// day in UTC) or date-time (`2026-03-01T09:30:00Z`, or with an offset `+01:00`; without
    /// one, UTC), `today` or `yesterday` (days in UTC), or a time before `now` as git writes
    /// it, `N.UNIT.ago` or `N UNIT ago` (`2.weeks.ago`, `1 hour ago`; seconds, minutes,
    /// hours, days, weeks, months or years). A day is its first second, or with `endOfDay`
    /// its last, so that `until` a day includes it. Anything else is a `usage` error.
    public static func time(_ text: String, endOfDay: Bool = false, now: Date = DocumentDates.now()) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let day = day(trimmed, now: now) {
            return endOfDay ? day.addingTimeInterval(86_400 - 1) : day
        }
        if trimmed.count > 10, let date = DocumentDates.parse(trimmed) ?? DocumentDates.parse(trimmed + "z") {
            return date
        }
        if let date = ago(trimmed, now: now) { return date }
        throw DocumentKitError(
            .usage,
            """
            expected a date (2026-03-01), a date-time (2026-03-01T09:30:00Z), today, yesterday or N.UNITS.ago \
            (2.weeks.ago)
            """
        )
    }

    /// The first second of the day `text` names: a date, `today` or `yesterday`.
    private static func day(_ text: String, now: Date) -> Date? {
        let today = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        switch text {
        case "today": return Date(timeIntervalSince1970: today)
        case "yesterday": return Date(timeIntervalSince1970: today - 86_400)
        default: return text.count == 10 ? DocumentDates.parse(text) : nil
        }
    }

    /// `N.UNIT.ago` or `N UNIT ago` before `now`; months and years by the calendar, in UTC.
    private static func ago(_ text: String, now: Date) -> Date? {
        let words = text.split(whereSeparator: { $0 == "." || $0 == " " || $0 == "_" })
        guard words.count == 3, words[2] == "ago", let count = Int(words[0]), count >= 0, count <= 1_000_000 else {
            return nil
        }
        var unit = String(words[1])
        if unit.hasSuffix("s") { unit.removeLast() }
        let components: (Calendar.Component, Int)
        switch unit {
        case "second": components = (.second, 1)
        case "minute": components = (.minute, 1)
        case "hour": components = (.hour, 1)
        case "day": components = (.day, 1)
        case "week": components = (.day, 7)
        case "month": components = (.month, 1)
        case "year": components = (.year, 1)
        default: return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(byAdding: components.0, value: -count * components.1, to: now)
    }
}
