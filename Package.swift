// swift-tools-version:6.0
import PackageDescription

// The layers, lowest first; each target imports only those below it (DESIGN.md, "Layers"):
//   DocumentKitCore     errors, digests, the clock, every system call
//   DocumentKitArchive  zip records and libarchive (the only importer of CArchive)
//   DocumentKitJSON     the JSON grammar, canonical text, paths and diffs
//   DocumentKitBundle   the bundle format: container, manifest, history segments, objects, trees, deltas
//   DocumentKit         documents, schemas, relationships, transactions, storage; re-exports the above
//   DocumentKitS3       an S3 client (SigV4 over async-http-client) for remotes on object storage
//   SampleProject       the sample document type, a Project with tasks and a thumbnail
//   DocumentKitCLI      docctl's commands, for any document types (a library product)
//   docctl              the command-line tool: DocumentKitCLI over SampleProject
//   docctl-s3           docctl with an S3 client: docctl hands it the commands on s3:// remotes
//   notectl             an app's own tool over its own type, as the tests run it
let package = Package(
    name: "DocumentKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DocumentKit", targets: ["DocumentKit"]),
        .library(name: "DocumentKitCLI", targets: ["DocumentKitCLI"]),
        .library(name: "DocumentKitS3", targets: ["DocumentKitS3"]),
        .library(name: "SampleProject", targets: ["SampleProject"]),
        .executable(name: "docctl", targets: ["docctl"]),
        .executable(name: "docctl-s3", targets: ["docctl-s3"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Documentation only: `swift package generate-documentation` (scripts/docs.sh). It
        // adds command plugins, which `swift build` compiles as plugin scripts and never
        // runs, so their tool (snippet-extract, with SymbolKit) is built only for the docs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev", "zlib1g-dev"]), .brew(["libarchive"])]
        ),
        .target(
            name: "DocumentKitCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "DocumentKitArchive", dependencies: ["DocumentKitCore", "CArchive"]),
        .target(name: "DocumentKitJSON", dependencies: ["DocumentKitCore"]),
        .target(name: "DocumentKitBundle", dependencies: ["DocumentKitCore", "DocumentKitArchive", "DocumentKitJSON"]),
        .target(
            name: "DocumentKit",
            dependencies: [
                "DocumentKitCore", "DocumentKitArchive", "DocumentKitJSON", "DocumentKitBundle",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "DocumentKitS3",
            dependencies: [
                "DocumentKit", "DocumentKitCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "SampleProject", dependencies: ["DocumentKit"]),
        .target(
            name: "DocumentKitCLI",
            dependencies: [
                "DocumentKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "docctl", dependencies: ["DocumentKitCLI", "SampleProject"]),
        .executableTarget(name: "docctl-s3", dependencies: ["DocumentKitCLI", "DocumentKitS3", "SampleProject"]),
        .executableTarget(name: "notectl", dependencies: ["DocumentKitCLI"]),
        // Makes the long histories bench/history.sh measures (bench only; not a product).
        .executableTarget(name: "dkbench", dependencies: ["DocumentKit", "SampleProject"]),
        .testTarget(
            name: "DocumentKitTests",
            dependencies: [
                "DocumentKit", "DocumentKitCLI", "DocumentKitS3", "SampleProject", "docctl", "docctl-s3", "notectl",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
