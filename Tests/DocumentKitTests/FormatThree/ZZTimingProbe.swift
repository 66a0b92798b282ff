@testable import DocumentKit
import Foundation
import Testing

@Suite struct ZZTimingProbe {
    @Test func probe() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: "/tmp/f3b/p.dkproj")
        try? FileManager.default.removeItem(at: url)
        try FormatThreeFixtures.project(at: url, taskCount: 20, saves: 1)
        var from = 2
        for _ in 0..<6 {
            let start = Date()
            try FormatThreeFixtures.addSaves(50, to: url, taskCount: 20, from: from)
            from += 50
            print("PROBE \(from): \(Date().timeIntervalSince(start) / 50 * 1000) ms/save, segments \(try DocumentBundle(contentsOf: url).history!.segments.count)")
        }
    }
}
