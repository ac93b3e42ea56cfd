// swift-tools-version: 6.2
// 6.2: the examples and tests use isolated conformances (`@MainActor Protocol`).

import PackageDescription

/// One set of compiler settings for every Swift target: Swift 6 language mode (complete
/// concurrency checking) and explicit `any` for existentials.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

/// The library alone: what adopters depend on. With its default traits it resolves only
/// swift-clocks (for the test kit's virtual time) and that package's own dependencies. The
/// trait `WebServer` turns on `TetherWebHummingbird`, which serves TetherWeb apps with
/// Hummingbird; only an adopter who enables it resolves Hummingbird's graph. The example apps,
/// their servers and the benchmarks live in `Examples/Package.swift` and
/// `Benchmarks/Package.swift`, which depend on this package by path.
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
    .library(name: "TetherTerminalTesting", targets: ["TetherTerminalTesting"]),
    .library(name: "TetherTesting", targets: ["TetherTesting"]),
    .library(name: "TetherWeb", targets: ["TetherWeb"]),
    .library(name: "TetherWebTesting", targets: ["TetherWebTesting"]),
    .library(name: "TetherWebHummingbird", targets: ["TetherWebHummingbird"]),
    .library(name: "TetherPubSub", targets: ["TetherPubSub"]),
    .library(name: "TetherPubSubPostgres", targets: ["TetherPubSubPostgres"]),
  ],
  traits: [
    .trait(
      name: "WebServer",
      description: "TetherWebHummingbird: serve TetherWeb apps with Hummingbird 2."
    ),
    .trait(
      name: "PostgresPubSub",
      description: "TetherPubSubPostgres: TetherPubSub across nodes through PostgreSQL."
    ),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    // Used only under the `WebServer` trait: not resolved by an adopter who leaves it off.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    // Used only under the `PostgresPubSub` trait.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
    // Typed publish–subscribe and presence across nodes; the transports are a bus in this
    // process or (under the `PostgresPubSub` trait) a database's notifications.
    .target(
      name: "TetherPubSub",
      dependencies: ["Tether"],
      swiftSettings: swiftSettings
    ),
    // Empty unless the `PostgresPubSub` trait is enabled.
    .target(
      name: "TetherPubSubPostgres",
      dependencies: [
        "TetherPubSub",
        .product(
          name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgresPubSub"])
        ),
        .product(
          name: "Logging", package: "swift-log", condition: .when(traits: ["PostgresPubSub"])),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherTerminal",
      dependencies: ["Tether", "TetherFlow"],
      swiftSettings: swiftSettings
    ),
    // Terminal screens driven by keys and read as text at a chosen size, in process.
    .target(
      name: "TetherTerminalTesting",
      dependencies: ["TetherTerminal", "TetherFlow", "Tether"],
      swiftSettings: swiftSettings
    ),
    // The web view layer without a server: HTML views, patches, sessions. The HTTP and
    // WebSocket side (Hummingbird) lives in Examples/, so it never reaches an adopter.
    .target(
      name: "TetherWeb",
      dependencies: ["Tether", "TetherFlow"],
      // The client and the default style sheet are files, built into the module's code (no
      // Foundation `Bundle` needed to read them).
      resources: [.embedInCode("Resources/tether.js"), .embedInCode("Resources/tether.css")],
      swiftSettings: swiftSettings
    ),
    // Serves TetherWeb apps with Hummingbird; empty unless the `WebServer` trait is enabled.
    .target(
      name: "TetherWebTesting",
      dependencies: ["TetherWeb", "TetherFlow", "Tether"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TetherWebHummingbird",
      dependencies: [
        "TetherWeb", "TetherFlow",
        .product(
          name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["WebServer"])),
        .product(
          name: "HummingbirdWebSocket", package: "hummingbird-websocket",
          condition: .when(traits: ["WebServer"])),
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["WebServer"])),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle",
          condition: .when(traits: ["WebServer"])),
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebServer"])),
        .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["WebServer"])),
        .product(
          name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["WebServer"])
        ),
        .product(
          name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["WebServer"])),
      ],
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

    // MARK: - Tests: `swift test` (the examples' own run with `swift test --package-path Examples`)

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
      name: "TetherPubSubTests",
      dependencies: ["TetherPubSub", "Tether", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherFlowTests",
      dependencies: ["TetherFlow", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherTerminalTests",
      dependencies: ["TetherTerminal", "TetherTerminalTesting", "TetherFlow", "TetherTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TetherWebTests",
      dependencies: ["TetherWeb", "TetherFlow", "TetherTesting", "TetherWebTesting"],
      swiftSettings: swiftSettings
    ),
    // TetherWebHummingbird's own checks; empty unless the `WebServer` trait is enabled (CI
    // runs them with `swift test --traits WebServer`).
    .testTarget(
      name: "TetherWebHummingbirdTests",
      dependencies: [
        "TetherWebHummingbird", "TetherWeb",
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebServer"])),
        .product(
          name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["WebServer"])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["WebServer"])),
      ],
      swiftSettings: swiftSettings
    ),
    // The README's and every DocC article's Swift blocks, compiled: each block must appear,
    // line for line, in this target's file for its article (DocSnippetTests checks it).
    .testTarget(
      name: "TetherDocsTests",
      dependencies: [
        "Tether", "TetherFlow", "TetherTerminal", "TetherTerminalTesting", "TetherWeb",
        "TetherTesting",
        "TetherWebTesting",
        "TetherPubSub",
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
