// swift-tools-version: 6.2

import PackageDescription

/// libFuzzer targets, one per input boundary. The library's (keys, text, diff, web, delivery) check
/// `TetherFuzzProperties` (../Tools) and build no server or app code; `json` checks the apps'
/// decoders in the examples' `FuzzProperties`. `swift test --package-path Examples` runs the
/// same checks over the seed corpus and every saved regression. Build and run with `Fuzz/run.sh TARGET SECONDS`: the targets link
/// only when built with `-sanitize=fuzzer`, which supplies the fuzzing engine.
let package = Package(
  name: "TetherFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "TetherTools", path: "../Tools"),
    .package(name: "TetherExamples", path: "../Examples"),
  ],
  targets: [
    .target(
      name: "FuzzDriver",
      dependencies: [.product(name: "TetherFuzzProperties", package: "TetherTools")],
      path: "Driver"
    ),
    .executableTarget(name: "fuzz-keys", dependencies: ["FuzzDriver"], path: "Targets/keys"),
    .executableTarget(
      name: "fuzz-json",
      dependencies: ["FuzzDriver", .product(name: "FuzzProperties", package: "TetherExamples")],
      path: "Targets/json"
    ),
    .executableTarget(name: "fuzz-text", dependencies: ["FuzzDriver"], path: "Targets/text"),
    .executableTarget(name: "fuzz-diff", dependencies: ["FuzzDriver"], path: "Targets/diff"),
    .executableTarget(name: "fuzz-web", dependencies: ["FuzzDriver"], path: "Targets/web"),
    .executableTarget(
      name: "fuzz-delivery", dependencies: ["FuzzDriver"], path: "Targets/delivery"),
  ]
)
