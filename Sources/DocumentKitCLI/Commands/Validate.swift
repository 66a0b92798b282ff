import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check bundles and report every problem, located.",
            discussion: "Exits 0 when every bundle is valid, 1 when any has an error finding, 66 when one is missing.")

        @Argument(help: "The bundles to check.", completion: .file())
        var bundles: [String]
        @Flag(help: "Also read every object and check its SHA-256, and every version's document.")
        var deep = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            // A deep check decodes every version's document, one after another: glibc would
            // keep the freed ones in its heap, where the next, as large, does not always fit
            // (77 MiB at 1,000 versions of a 7.4 MB document, 63 MiB so). A mapping per
            // document costs a few seconds of a minute's check.
            if deep { LargeAllocations.returnToSystem(atLeast: 1 << 20) }
            let reports = try bundles.map { try BundleValidator.validate(URL(fileURLWithPath: $0), deep: deep) }
            if output.json {
                try Console.printJSON(reports)
            } else {
                for report in reports {
                    let errors = report.findings.filter { $0.severity == .error }.count
                    let warnings = report.findings.count - errors
                    let summary =
                        report.valid
                        ? """
                        ok (\(report.versions) version\(report.versions == 1 ? "" : "s"), \(report.objects) \
                        objects\(deep ? ", every digest checked" : ""))
                        """
                        : "\(errors) error\(errors == 1 ? "" : "s")"
                    let counts = report.valid ? Console.styled(summary, .green) : Console.styled(summary, .red)
                    let warned =
                        warnings > 0
                        ? ", " + Console.styled("\(warnings) warning\(warnings == 1 ? "" : "s")", .yellow) : ""
                    Console.print("\(report.file): \(counts)\(warned)")
                    for finding in report.findings {
                        let severity = finding.severity.rawValue
                        let text = finding.described(byTool: DocumentTool.name)
                        let styled =
                            text.hasPrefix(severity)
                            ? Console.styled(severity, finding.severity == .error ? .red : .yellow)
                                + text.dropFirst(severity.count) : text
                        Console.print("  \(styled)")
                    }
                }
            }
            if reports.contains(where: { !$0.valid }) { throw ExitCode(1) }
        }
    }
}
