import DocumentKitCore
import Foundation
import Testing

@testable import DocumentKit

/// The pool a push, a clone and a pull run their transfers in (issue 24: transfers side by
/// side): never more at once than asked, every item once, the first failure thrown and
/// nothing started after it, and progress counted from every thread.
@Suite struct TransferQueueTests {
    /// How many calls run now, and the most that ever did.
    private final class Gauge: Sendable {
        private let state = Protected((now: 0, most: 0))
        func enter() { state.mutate { $0 = ($0.now + 1, max($0.most, $0.now + 1)) } }
        func leave() { state.mutate { $0.now -= 1 } }
        var most: Int { state.value.most }
        var now: Int { state.value.now }
    }

    private struct Failure: Error, Equatable {
        let item: Int
    }

    @Test(arguments: [2, 4, 8])
    func neverRunsMoreThanItsJobsAtOnceAndRunsEveryItemOnce(jobs: Int) throws {
        let gauge = Gauge()
        let done = Protected<[Int]>([])
        try TransferQueue.run(Array(0..<40), jobs: jobs) { item in
            gauge.enter()
            defer { gauge.leave() }
            usleep(3_000)
            done.mutate { $0.append(item) }
        }
        #expect(done.value.sorted() == Array(0..<40), "every item once, all ended when run returns")
        #expect(gauge.now == 0)
        #expect(gauge.most <= jobs, "\(gauge.most) at once with \(jobs) jobs")
        #expect(gauge.most >= 2, "side by side: at most \(gauge.most) at once")
    }

    @Test func oneJobRunsTheItemsInOrderOnTheCallingThread() throws {
        let caller = pthread_self()
        let order = Protected<[Int]>([])
        let elsewhere = Protected(false)
        try TransferQueue.run(Array(0..<10), jobs: 1) { item in
            if pthread_equal(pthread_self(), caller) == 0 { elsewhere.value = true }
            order.mutate { $0.append(item) }
        }
        #expect(order.value == Array(0..<10))
        #expect(!elsewhere.value)
    }

    @Test func theFirstFailureIsThrownAndNothingStartsAfterIt() throws {
        let jobs = 3
        let started = Protected<[Int]>([])
        let ended = Protected(0)
        #expect(throws: Failure(item: 5)) {
            try TransferQueue.run(Array(0..<60), jobs: jobs) { item in
                started.mutate { $0.append(item) }
                defer { ended.mutate { $0 += 1 } }
                if item == 5 { throw Failure(item: 5) }
                // A later failure, while the first is known, is not the one thrown.
                if item > 5 {
                    usleep(20_000)
                    throw Failure(item: item)
                }
                usleep(2_000)
            }
        }
        let items = started.value
        // Handed out in order: besides item 5, only those already under way when it failed.
        #expect(items.max()! <= 5 + jobs, "started after the failure: \(items)")
        #expect(ended.value == items.count, "every transfer that started had ended when run returned")
    }

    @Test func progressIsCountedFromEveryThread() throws {
        let reports = Protected<[WorkProgress]>([])
        try WorkProgress.reporting(to: { report in reports.mutate { $0.append(report) } }) {
            try ProgressMeter.phase(.writing, counting: .read, totalBytes: 100 << 16) {
                try TransferQueue.run(Array(0..<100), jobs: 4) { _ in
                    ProgressMeter.advance(.read, by: 1 << 16)
                }
            }
        }
        let counted = reports.value.filter { $0.phase == .writing }.map(\.completedBytes)
        #expect(counted.last == 100 << 16)
        // Each 64 KiB step reported, not only the phase's end.
        #expect(counted.count > 50, "\(counted.count) reports")
    }
}
