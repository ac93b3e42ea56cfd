// swift-tools-version: 6.0

import PackageDescription

/// One set of compiler settings for every Swift target: Swift 6 language mode (complete
/// concurrency checking) and explicit `any` for existentials.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
  name: "Tether",
  platforms: [
    .macOS(.v14),
    .iOS(.v17),
    .tvOS(.v17),
    .watchOS(.v10),
  ],
  products: [
    .library(name: "Tether", targets: ["Tether"]),
    .library(name: "TetherTesting", targets: ["TetherTesting"]),
    .library(name: "Gallery", targets: ["Gallery"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // MARK: - Library

    .target(
      name: "Tether",
      dependencies: ["TetherTrackingSupport"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherTrackingSupport"
    ),
    .target(
      name: "TetherTesting",
      dependencies: [
        "Tether",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: - Examples

    .target(
      name: "ExampleSupport",
      path: "Examples/ExampleSupport",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Gallery",
      dependencies: ["Tether", "ExampleSupport"],
      path: "Examples/Gallery",
      swiftSettings: swiftSettings
    ),

    // MARK: - Benchmarks

    .executableTarget(
      name: "tether-bench",
      dependencies: [
        "Tether",
        "Gallery",
        "ExampleSupport",
        "BenchmarkAllocator",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Benchmarks/TetherBench",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "BenchmarkAllocator",
      path: "Benchmarks/BenchmarkAllocator"
    ),

    // MARK: - Tests

    .testTarget(
      name: "TetherTests",
      dependencies: [
        "Tether",
        "TetherTesting",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GalleryTests",
      dependencies: ["Gallery", "ExampleSupport", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherTestingTests",
      dependencies: ["Tether", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
