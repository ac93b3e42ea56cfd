// swift-tools-version: 6.2

import PackageDescription

/// Swift 6 language mode (complete concurrency checking) and explicit `any`, as everywhere.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

/// Tools that measure and drive Tether's apps without being part of one: a blocking loopback
/// HTTP and WebSocket client, a WebDriver client for headless Chromium, the process's heap
/// statistics, the properties the fuzz targets check, and Hummingbird alone on one WebSocket
/// route (the baseline a closed socket's memory is measured against, and its upstream
/// reproduction). The examples' tests, `tether-bench` and the fuzz targets use them; nothing
/// here reaches a package that depends on Tether.
let package = Package(
  name: "TetherTools",
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  products: [
    .library(name: "LoopbackClient", targets: ["LoopbackClient"]),
    .library(name: "ShowcaseBrowser", targets: ["ShowcaseBrowser"]),
    .library(name: "HeapStatistics", targets: ["HeapStatistics"]),
    .library(name: "TetherFuzzProperties", targets: ["TetherFuzzProperties"]),
    .executable(name: "hummingbird-ws-close", targets: ["hummingbird-ws-close"]),
  ],
  dependencies: [
    .package(name: "Tether", path: ".."),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
  ],
  targets: [
    // A blocking loopback client: HTTP, the WebSocket frames a page sends, a page's hello.
    // showcase-load, the end-to-end tests and tether-bench drive servers with it.
    .target(
      name: "LoopbackClient",
      dependencies: [.product(name: "TetherWeb", package: "Tether")],
      path: "LoopbackClient",
      swiftSettings: swiftSettings
    ),
    // A WebDriver client for headless Chromium: the browser tests and tether-bench.
    .target(
      name: "ShowcaseBrowser",
      path: "ShowcaseBrowser",
      swiftSettings: swiftSettings
    ),
    // glibc's mallinfo2 (bytes in use and mapped): `/stats` and tether-bench's bytes.
    .target(
      name: "HeapStatistics",
      path: "HeapStatistics"
    ),
    // What each of the library's libFuzzer targets checks (../Fuzz), also run over the corpus
    // and every saved regression by the examples' tests. No server dependency.
    .target(
      name: "TetherFuzzProperties",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherTerminal", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
      ],
      path: "FuzzProperties",
      swiftSettings: swiftSettings
    ),
    // Hummingbird alone, one WebSocket route that closes every socket: the memory a closed
    // socket leaves is measured against it (WebSecurityTests), and it reproduces it upstream.
    .executableTarget(
      name: "hummingbird-ws-close",
      dependencies: [
        "HeapStatistics",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "HummingbirdWebSocketClose",
      exclude: ["REPORT.md"],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
