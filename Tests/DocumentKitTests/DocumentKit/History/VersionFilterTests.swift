import Foundation
import Testing

@testable import DocumentKit

/// What `log --author --grep --since --until` take, and which versions they keep.
@Suite struct VersionFilterTests {
    /// 2026-03-10T15:30:00Z.
    private let now = Date(timeIntervalSince1970: 1_773_156_600)

    private func time(_ text: String, endOfDay: Bool = false) throws -> String {
        DocumentDates.format(try VersionFilter.time(text, endOfDay: endOfDay, now: now))
    }

    @Test func datesDateTimesAndTimesAgoAreRead() throws {
        #expect(try time("2026-03-01") == "2026-03-01T00:00:00Z")
        #expect(try time("2026-03-01", endOfDay: true) == "2026-03-01T23:59:59Z", "until a day includes it")
        #expect(try time("2026-03-01T09:30:00Z") == "2026-03-01T09:30:00Z")
        #expect(try time("2026-03-01T09:30:00Z", endOfDay: true) == "2026-03-01T09:30:00Z", "a time is a time")
        #expect(try time("2026-03-01T09:30:00") == "2026-03-01T09:30:00Z", "without a zone, UTC")
        #expect(try time("2026-03-01T09:30:00+01:00") == "2026-03-01T08:30:00Z")
        #expect(try time("today") == "2026-03-10T00:00:00Z")
        #expect(try time("Yesterday", endOfDay: true) == "2026-03-09T23:59:59Z")
        #expect(try time("2.weeks.ago") == "2026-02-24T15:30:00Z")
        #expect(try time("1 hour ago") == "2026-03-10T14:30:00Z")
        #expect(try time("3.days.ago") == "2026-03-07T15:30:00Z")
        #expect(try time("1.month.ago") == "2026-02-10T15:30:00Z")
        #expect(try time("1.year.ago") == "2025-03-10T15:30:00Z")
        #expect(try time("90.seconds.ago") == "2026-03-10T15:28:30Z")
    }

    @Test(arguments: [
        "", "someday", "2026-13-01", "2026-03-01T25:00:00Z", "2.fortnights.ago", "ago", "-1.days.ago", "two.days.ago",
        "2026/03/01"
    ])
    func anythingElseIsAUsageError(text: String) {
        #expect {
            try VersionFilter.time(text, now: now)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .usage && error.message.hasPrefix("expected a date (2026-03-01), a date-time")
        }
    }

    @Test func aBadPatternIsAUsageError() {
        #expect {
            try VersionFilter.pattern("(")
        } throws: { error in
            (error as! DocumentKitError).code == .usage
        }
    }

    @Test func everyCriterionGivenMustHold() throws {
        func version(_ author: String, _ message: String, _ created: String) -> BundleVersion {
            BundleVersion(
                number: 1, parents: [], created: DocumentDates.parse(created)!, author: author, message: message,
                schema: "1.0.0", tree: ObjectDigest.of(Data()))
        }
        let ada = version("Ada Lovelace <ada@example.org>", "Plan the beds", "2026-03-01T10:00:00Z")
        let bob = version("Bob", "Water the beds\nand the pots", "2026-03-05T10:00:00Z")
        #expect(VersionFilter().isEmpty && VersionFilter().matches(ada))
        #expect(
            try VersionFilter(author: VersionFilter.pattern("lovelace")).matches(ada) == false, "case counts, as in git"
        )
        #expect(try VersionFilter(author: VersionFilter.pattern("lovelace", ignoringCase: true)).matches(ada))
        #expect(try VersionFilter(author: VersionFilter.pattern("@example\\.org>$")).matches(ada))
        #expect(
            try VersionFilter(message: VersionFilter.pattern("^and the")).matches(bob) == false,
            "^ is the start of the message")
        #expect(try VersionFilter(message: VersionFilter.pattern("pots")).matches(bob))
        let since = try VersionFilter.time("2026-03-05", now: now)
        let until = try VersionFilter.time("2026-03-05", endOfDay: true, now: now)
        #expect(VersionFilter(since: since).matches(bob) && !VersionFilter(since: since).matches(ada))
        #expect(VersionFilter(until: until).matches(bob) && VersionFilter(until: until).matches(ada))
        let both = try VersionFilter(author: VersionFilter.pattern("Bob"), message: VersionFilter.pattern("Plan"))
        #expect(!both.matches(ada) && !both.matches(bob), "criteria combine with and")
    }
}
