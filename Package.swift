// swift-tools-version: 6.0

import PackageDescription

/// One set of compiler settings for every Swift target: Swift 6 language mode (complete
/// concurrency checking) and explicit `any` for existentials.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
  name: "Tether",
  // Observation (`observe { }`, Observation-visible properties) and Synchronization's `Mutex`
  // (the per-actor flush queues of `observe { }`) set the floor.
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  products: [
    .library(name: "Tether", targets: ["Tether"]),
    .library(name: "TetherFlow", targets: ["TetherFlow"]),
    .library(name: "TetherTerminal", targets: ["TetherTerminal"]),
    .library(name: "TetherTesting", targets: ["TetherTesting"]),
    .library(name: "Gallery", targets: ["Gallery"]),
    .library(name: "Courses", targets: ["Courses"]),
    .library(name: "Profile", targets: ["Profile"]),
    .library(name: "Articles", targets: ["Articles"]),
    .library(name: "Entry", targets: ["Entry"]),
    .executable(name: "showcase", targets: ["showcase"]),
    .executable(name: "showcase-api", targets: ["showcase-api"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
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
      name: "TetherTerminal",
      dependencies: ["Tether", "TetherFlow"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherFlow",
      dependencies: ["Tether"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherTesting",
      dependencies: [
        "Tether",
        "TetherFlow",
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

    .target(
      name: "Courses",
      dependencies: ["Tether", "ExampleSupport"],
      path: "Examples/Courses",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Profile",
      dependencies: ["Tether", "ExampleSupport"],
      path: "Examples/Profile",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Articles",
      dependencies: ["Tether", "ExampleSupport"],
      path: "Examples/Articles",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Entry",
      dependencies: ["Tether", "ExampleSupport"],
      path: "Examples/Entry",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseFlows",
      dependencies: ["Tether", "TetherFlow", "Gallery", "Courses", "Profile", "Articles", "Entry"],
      path: "Examples/ShowcaseFlows",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseViews",
      dependencies: [
        "ShowcaseFlows", "TetherTerminal", "Tether", "TetherFlow", "Gallery", "Courses", "Profile",
        "Articles", "Entry",
      ],
      path: "Examples/ShowcaseViews",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "showcase",
      dependencies: [
        "ShowcaseViews", "ShowcaseFlows", "TetherTerminal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Showcase",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseServer",
      dependencies: [
        "Gallery",
        "Courses",
        "Profile",
        "Articles",
        "Entry",
        "ExampleSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Examples/ShowcaseServer",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "showcase-api",
      dependencies: [
        "ShowcaseServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/ShowcaseAPI",
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
      name: "TetherTerminalTests",
      dependencies: ["TetherTerminal"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GalleryTests",
      dependencies: ["Gallery", "ExampleSupport", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ExamplesTests",
      dependencies: ["Courses", "Profile", "Articles", "Entry", "ExampleSupport", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseFlowsTests",
      dependencies: [
        "ShowcaseFlows", "TetherFlow", "TetherTesting", "Gallery", "Courses", "Profile", "Articles",
        "Entry",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseTests",
      dependencies: [
        "ShowcaseViews", "ShowcaseFlows", "TetherTerminal", "TetherTesting", "Gallery", "Courses",
        "Profile", "Articles", "Entry", "ExampleSupport",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseServerTests",
      dependencies: [
        "ShowcaseServer",
        "Gallery",
        "Courses",
        "Profile",
        "Articles",
        "Entry",
        "ExampleSupport",
        "TetherTesting",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
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
