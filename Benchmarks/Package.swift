// swift-tools-version: 6.2

import PackageDescription

/// `tether-bench`: Tether side by side with OpenCombine and Apple's Observation, and the web
/// layer's costs (bytes per gesture, heap per session, client size). Its own package, so the
/// competitors it measures never reach a package that depends on Tether.
///
///     swift run --package-path Benchmarks -c release tether-bench
let package = Package(
  name: "TetherBenchmarks",
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  dependencies: [
    .package(name: "Tether", path: "..", traits: ["WebServer"]),
    .package(name: "TetherExamples", path: "../Examples"),
    .package(name: "TetherTools", path: "../Tools"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    .executableTarget(
      name: "tether-bench",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
        .product(name: "Gallery", package: "TetherExamples"),
        .product(name: "ShowcaseFlows", package: "TetherExamples"),
        .product(name: "ShowcaseWeb", package: "TetherExamples"),
        .product(name: "Todos", package: "TetherExamples"),
        .product(name: "ShowcaseWebServer", package: "TetherExamples"),
        .product(name: "ShowcaseBrowser", package: "TetherTools"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "LoopbackClient", package: "TetherTools"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "ExampleSupport", package: "TetherExamples"),
        .product(name: "HeapStatistics", package: "TetherTools"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "TetherBench",
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    )
  ],
  swiftLanguageModes: [.v6]
)
