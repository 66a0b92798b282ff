import Foundation
import Testing

@testable import DocumentKitCore

/// ``OrderedWork``: pieces made side by side, used in order, never far ahead.
@Suite struct OrderedWorkTests {
    private struct Stop: Error {}

    @Test func resultsArriveInOrderHoweverLongEachPieceTakes() throws {
        var random = SeededRandom(seed: 25)
        let delays = (0..<40).map { _ in UInt32.random(in: 0..<2_000, using: &random) }
        var seen: [Int] = []
        try OrderedWork.run(
            count: delays.count, width: 3, lookahead: 4,
            produce: { index in
                usleep(delays[index])
                return index * 10
            }
        ) { index, result in
            #expect(result == index * 10)
            seen.append(index)
        }
        #expect(seen == Array(0..<delays.count))
    }

    @Test func noPieceIsMadeMoreThanTheLookaheadAheadOfTheOneUsed() throws {
        let started = Protected(0)
        var furthest = 0
        try OrderedWork.run(
            count: 30, width: 2, lookahead: 3,
            produce: { index in
                started.mutate { $0 = max($0, index + 1) }
                return index
            }
        ) { index, _ in
            usleep(1_000)
            furthest = max(furthest, started.value - 1 - index)
        }
        #expect(furthest <= 3, "a piece started \(furthest) ahead of the one used")
    }

    @Test func anErrorStopsThePiecesNotStartedAndIsThrown() throws {
        let made = Protected(0)
        #expect(throws: Stop.self) {
            try OrderedWork.run(
                count: 1_000, width: 2, lookahead: 2,
                produce: { index in
                    made.mutate { $0 += 1 }
                    return index
                }
            ) { index, _ in
                if index == 5 { throw Stop() }
            }
        }
        #expect(made.value < 20, "\(made.value) pieces made after the error")
    }

    @Test func oneThreadMakesAndUsesEachPieceInTurn() throws {
        var log: [String] = []
        let made = Protected<[Int]>([])
        try OrderedWork.run(
            count: 3, width: 1, lookahead: 8,
            produce: { index in
                made.mutate { $0.append(index) }
                return index
            }
        ) { index, _ in
            log.append("\(index) after \(made.value.count)")
        }
        #expect(log == ["0 after 1", "1 after 2", "2 after 3"])
    }
}
