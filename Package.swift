// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "DocumentKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DocumentKit", targets: ["DocumentKit"]),
        .executable(name: "docctl", targets: ["docctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev", "zlib1g-dev"]), .brew(["libarchive"])]
        ),
        .target(
            name: "DocumentKit",
            dependencies: [
                "CArchive",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "docctl",
            dependencies: [
                "DocumentKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DocumentKitTests",
            dependencies: ["DocumentKit", "docctl"]
        ),
    ]
)
