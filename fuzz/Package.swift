// swift-tools-version:6.0
// The fuzz targets, kept out of the main package so that `swift build`, `swift test` and
// CI never build them: they need `-sanitize=fuzzer,address`, which `fuzz/run.sh` passes.
// One executable per target, whose main.swift hands libFuzzer the function it fuzzes.
import PackageDescription

let fuzzTargetDependencies: [Target.Dependency] = [
    "FuzzerDriver", "FuzzSupport", .product(name: "DocumentKit", package: "DocumentKit"),
]

let package = Package(
    name: "DocumentKitFuzz",
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder's name, which
        // differs between clones and worktrees.
        .package(name: "DocumentKit", path: ".."),
    ],
    targets: [
        .target(name: "FuzzerDriver"),
        // What every target checks of a refusal: that it is the documented error type.
        .target(name: "FuzzSupport", dependencies: [.product(name: "DocumentKit", package: "DocumentKit")]),
        .executableTarget(
            name: "BundleFuzzer",
            dependencies: fuzzTargetDependencies + [.product(name: "SampleProject", package: "DocumentKit")]),
        .executableTarget(name: "JSONPathFuzzer", dependencies: fuzzTargetDependencies),
        .executableTarget(name: "JSONParseFuzzer", dependencies: fuzzTargetDependencies),
    ]
)
