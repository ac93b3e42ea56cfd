// swift-tools-version: 6.2
// 6.2: the examples and tests use isolated conformances (`@MainActor Protocol`).

import PackageDescription

/// One set of compiler settings for every Swift target: Swift 6 language mode (complete
/// concurrency checking) and explicit `any` for existentials.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

/// The library alone: what adopters depend on. It resolves only swift-clocks (for the test
/// kit's virtual time) and that package's own dependencies. The example apps, their servers and
/// the benchmarks live in `Examples/Package.swift` and `Benchmarks/Package.swift`, which depend
/// on this package by path, so their dependencies never reach an adopter.
let package = Package(
  name: "Tether",
  // Observation (`observe { }`, Observation-visible properties) and the Swift 6 standard
  // library's newer APIs (`String(validating:as:)` for screen paths) set the floor.
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
    .library(name: "TetherWeb", targets: ["TetherWeb"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1")
  ],
  targets: [
    .target(
      name: "Tether",
      dependencies: ["TetherTrackingSupport"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherTrackingSupport"
    ),
    .target(
      name: "TetherFlow",
      dependencies: ["Tether"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherTerminal",
      dependencies: ["Tether", "TetherFlow"],
      swiftSettings: swiftSettings
    ),
    // The web view layer without a server: HTML views, patches, sessions. The HTTP and
    // WebSocket side (Hummingbird) lives in Examples/, so it never reaches an adopter.
    .target(
      name: "TetherWeb",
      dependencies: ["Tether", "TetherFlow"],
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

    // MARK: - Tests (also run, through symbolic links, by `swift test --package-path Examples`)

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
      name: "TetherFlowTests",
      dependencies: ["TetherFlow", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherTerminalTests",
      dependencies: ["TetherTerminal", "TetherFlow", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherWebTests",
      dependencies: ["TetherWeb", "TetherFlow", "TetherTesting"],
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
