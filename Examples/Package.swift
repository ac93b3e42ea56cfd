// swift-tools-version: 6.2
// 6.2: the Profile's header binds through an isolated conformance (`@MainActor Protocol`).

import PackageDescription

/// One set of compiler settings for every Swift target: Swift 6 language mode (complete
/// concurrency checking) and explicit `any` for existentials.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

/// The six apps, the `showcase` app, its servers and their test suites (a map: README.md). It
/// depends on the library (the package one folder up) and on the tools (../Tools) by path, so
/// Hummingbird, SwiftNIO and the test-only packages here never reach a package that depends
/// on Tether.
///
/// `swift test --package-path Examples` runs the apps', flows', servers' and end-to-end
/// suites; the library's own suites run at the root (`swift test`).
/// The apps: each one folder, with a subfolder per layer (see README.md).
let apps = ["Gallery", "Courses", "Profile", "Articles", "Entry", "Todos"]
/// An app's layers: its UI-free library (the first three), what shows it, and its tests.
let appLayers = ["Model", "Service", "ViewModels", "Flow", "Web", "Terminal", "Tests"]
/// The layers an app's library target leaves to the targets that gather them.
let shownLayers = ["Flow", "Web", "Terminal", "Tests"]
/// TodoMVC's stores and their suite, beside its layers.
let todosStorage = ["Storage", "StorageTests"]
/// Every file and folder of this package, to the depth its targets divide it. The targets that
/// gather one layer of every app sit at the package's folder and exclude everything they do not
/// gather (`everything(but:)`), so no file is left unclaimed.
let packageEntries: [String] =
  [
    "ExampleSupport", "CounterArticle", "FormsArticle", "FuzzProperties", "Screenshots",
    "README.md",
  ]
  + ["App", "Flows", "Web", "Terminal", "WebServer", "APIServer", "API", "Cluster", "Load"]
  .map { "Showcase/\($0)" }
  + [
    "ExamplesTests", "FuzzPropertiesTests", "ShowcaseFlowsTests", "ShowcaseServerTests",
    "ShowcaseTestSupport", "ShowcaseTests", "ShowcaseWebTests",
  ].map { "Tests/\($0)" }
  + apps.flatMap { app in appLayers.map { "\(app)/\($0)" } }
  + todosStorage.map { "Todos/\($0)" }

/// The entries of this package a target at its folder excludes: all but its `sources`.
func everything(but sources: [String]) -> [String] {
  packageEntries.filter { entry in
    !sources.contains { $0 == entry || $0.hasPrefix(entry + "/") }
  }
}

/// One layer of every app, and the showcase's own folder for it.
func layer(_ name: String, showcase: String) -> [String] {
  ["Showcase/\(showcase)"] + apps.map { "\($0)/\(name)" }
}

/// The sources of the showcase's web target: TodoMVC's web folder also holds its style sheet.
let webSources = layer("Web", showcase: "Web").map {
  $0 == "Todos/Web" ? "Todos/Web/TodosScreen.swift" : $0
}
/// The app view models' tests but the Gallery's (a target of its own), and the examples'
/// shared support.
let examplesTestSources =
  apps.filter { $0 != "Gallery" }.map { "\($0)/Tests" } + ["Tests/ExamplesTests"]

let package = Package(
  name: "TetherExamples",
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  products: [
    .library(name: "ExampleSupport", targets: ["ExampleSupport"]),
    .library(name: "Gallery", targets: ["Gallery"]),
    .library(name: "Courses", targets: ["Courses"]),
    .library(name: "Profile", targets: ["Profile"]),
    .library(name: "Articles", targets: ["Articles"]),
    .library(name: "Entry", targets: ["Entry"]),
    .library(name: "Todos", targets: ["Todos"]),
    .library(name: "TodosStorage", targets: ["TodosStorage"]),
    .library(name: "ShowcaseFlows", targets: ["ShowcaseFlows"]),
    .library(name: "ShowcaseWeb", targets: ["ShowcaseWeb"]),
    .library(name: "ShowcaseWebServer", targets: ["ShowcaseWebServer"]),
    .executable(name: "showcase", targets: ["showcase"]),
    .executable(name: "showcase-api", targets: ["showcase-api"]),
    .library(name: "FuzzProperties", targets: ["FuzzProperties"]),
    .executable(name: "showcase-load", targets: ["showcase-load"]),
    .executable(name: "showcase-cluster", targets: ["showcase-cluster"]),
    .executable(name: "counter-article", targets: ["counter-article"]),
    .executable(name: "forms-article", targets: ["forms-article"]),
  ],
  dependencies: [
    .package(name: "Tether", path: "..", traits: ["WebServer", "PostgresPubSub"]),
    .package(name: "TetherTools", path: "../Tools"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    // MARK: - The apps
    //
    // Each app is one folder: Model/, Service/ and ViewModels/ (the app's own UI-free library,
    // below), Flow/, Web/ and Terminal/ (gathered by the showcase's targets, whose `sources`
    // name each app's folder for their layer), and Tests/.

    .target(
      name: "ExampleSupport",
      dependencies: [.product(name: "Tether", package: "Tether")],
      path: "ExampleSupport",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Gallery",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherPubSub", package: "Tether"), "ExampleSupport",
      ],
      path: "Gallery",
      exclude: shownLayers,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Courses",
      dependencies: [.product(name: "Tether", package: "Tether"), "ExampleSupport"],
      path: "Courses",
      exclude: shownLayers,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Profile",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"), "ExampleSupport",
      ],
      path: "Profile",
      exclude: shownLayers,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Articles",
      dependencies: [.product(name: "Tether", package: "Tether"), "ExampleSupport"],
      path: "Articles",
      exclude: shownLayers,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Entry",
      dependencies: [.product(name: "Tether", package: "Tether"), "ExampleSupport"],
      path: "Entry",
      exclude: shownLayers,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "Todos",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherPubSub", package: "Tether"),
      ],
      path: "Todos",
      exclude: shownLayers + todosStorage,
      sources: ["Model", "Service", "ViewModels"],
      swiftSettings: swiftSettings
    ),
    // TodoMVC's durable stores: SQLite through GRDB (the embedded default) and PostgreSQL
    // through postgres-nio (the cluster). Only the showcase's executables and their tests
    // build them; the Todos view models know the `TodoStore` protocol alone.
    .target(
      name: "TodosStorage",
      dependencies: [
        "Todos",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "TetherPubSub", package: "Tether"),
        .product(name: "TetherPubSubPostgres", package: "Tether"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      path: "Todos/Storage",
      swiftSettings: swiftSettings
    ),

    // MARK: - The showcase

    .target(
      name: "ShowcaseFlows",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherPubSub", package: "Tether"),
        "ExampleSupport", "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos",
      ],
      path: ".",
      exclude: everything(but: layer("Flow", showcase: "Flows")),
      sources: layer("Flow", showcase: "Flows"),
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseTerminal",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherTerminal", package: "Tether"),
        "ShowcaseFlows", "ExampleSupport", "Gallery", "Courses", "Profile", "Articles", "Entry",
        "Todos",
      ],
      path: ".",
      exclude: everything(but: layer("Terminal", showcase: "Terminal")),
      sources: layer("Terminal", showcase: "Terminal"),
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseWeb",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        "ShowcaseFlows", "ExampleSupport", "Gallery", "Courses", "Profile", "Articles", "Entry",
        "Todos",
      ],
      path: ".",
      exclude: everything(but: webSources),
      sources: webSources,
      // TodoMVC's style sheet and its copy hook's script sit beside its web view; the view's
      // file is named alone above so that they are resources and not also unhandled sources.
      resources: [.copy("Todos/Web/todos.css"), .copy("Todos/Web/copy-to-clipboard.js")],
      swiftSettings: swiftSettings
    ),
    // TetherWeb's server side: pages, assets and the session sockets (Hummingbird).
    .target(
      name: "ShowcaseWebServer",
      dependencies: [
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
        "ShowcaseWeb", "ShowcaseFlows", "Gallery",
        .product(name: "HeapStatistics", package: "TetherTools"),
        .product(name: "Tether", package: "Tether"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Showcase/WebServer",
      swiftSettings: swiftSettings
    ),
    // The `showcase` command: every app in the terminal, or (`--web`) served to browsers.
    .executableTarget(
      name: "showcase",
      dependencies: [
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherTerminal", package: "Tether"),
        "ShowcaseTerminal", "ShowcaseFlows", "ShowcaseWeb", "ShowcaseWebServer", "TodosStorage",
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Showcase/App",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ShowcaseServer",
      dependencies: [
        "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos", "ExampleSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Showcase/APIServer",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "showcase-api",
      dependencies: [
        "ShowcaseServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Showcase/API",
      swiftSettings: swiftSettings
    ),

    // The web showcase on several nodes behind HAProxy: `swift run showcase-cluster`.
    .executableTarget(
      name: "showcase-cluster",
      dependencies: [
        "ShowcaseWebServer", "ShowcaseFlows", "TodosStorage",
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Showcase/Cluster",
      swiftSettings: swiftSettings
    ),

    // The web showcase under load and faults: `swift run -c release showcase-load`.
    .executableTarget(
      name: "showcase-load",
      dependencies: [
        "Gallery", "ShowcaseWeb", "Todos", "TodosStorage",
        .product(name: "LoopbackClient", package: "TetherTools"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Showcase/Load",
      swiftSettings: swiftSettings
    ),

    // TetherWeb's getting-started article, exactly as written: its Swift code blocks, joined
    // by .ci/extract-swift-blocks (a test checks they still match). A Chromium test clicks it.
    .executableTarget(
      name: "counter-article",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
      ],
      path: "CounterArticle",
      swiftSettings: swiftSettings
    ),
    // TetherWeb's Forms article, the same way: a sign-up form a Chromium test fills in.
    .executableTarget(
      name: "forms-article",
      dependencies: [
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
      ],
      path: "FormsArticle",
      swiftSettings: swiftSettings
    ),

    // MARK: - Fuzzing: the apps' JSON decoding properties (../Fuzz, target json); the library's
    // targets check TetherFuzzProperties (../Tools)

    .target(
      name: "FuzzProperties",
      dependencies: [
        .product(name: "TetherFuzzProperties", package: "TetherTools"),
        "ExampleSupport", "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos",
      ],
      path: "FuzzProperties",
      swiftSettings: swiftSettings
    ),

    // MARK: - Tests: the examples' own (the library's run at the root)

    .target(
      name: "ShowcaseTestSupport",
      dependencies: [
        "ShowcaseFlows", "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos",
        .product(name: "TetherFlow", package: "Tether"),
      ],
      path: "Tests/ShowcaseTestSupport",
      swiftSettings: swiftSettings
    ),

    // The apps' JSON properties over their corpus, and the library's fuzz properties over
    // theirs (Fuzz/Corpus, Fuzz/Regressions).
    .testTarget(
      name: "FuzzPropertiesTests",
      dependencies: [
        "FuzzProperties", .product(name: "TetherFuzzProperties", package: "TetherTools"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GalleryTests",
      dependencies: [
        "Gallery", "ExampleSupport", .product(name: "TetherTesting", package: "Tether"),
        .product(name: "TetherPubSub", package: "Tether"),
      ],
      path: "Gallery/Tests",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "Courses", "Profile", "Articles", "Entry", "Todos", "ExampleSupport",
        .product(name: "TetherTesting", package: "Tether"),
        .product(name: "TetherPubSub", package: "Tether"),
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      path: ".",
      exclude: everything(but: examplesTestSources),
      sources: examplesTestSources,
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseFlowsTests",
      dependencies: [
        "ShowcaseFlows", "ShowcaseTestSupport", "Gallery", "Courses", "Profile", "Articles",
        "Entry", "ExampleSupport",
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherTesting", package: "Tether"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseTests",
      dependencies: [
        "ShowcaseTerminal", "ShowcaseFlows", "ShowcaseWeb", "ShowcaseTestSupport",
        .product(name: "ShowcaseBrowser", package: "TetherTools"), "Gallery",
        "Courses", "Profile",
        "Articles", "Entry", "Todos", "TodosStorage",
        "ExampleSupport",
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "TetherTerminal", package: "Tether"),
        .product(name: "TetherTerminalTesting", package: "Tether"),
        .product(name: "TetherTesting", package: "Tether"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseWebTests",
      dependencies: [
        "ShowcaseWeb", "ShowcaseWebServer", "ShowcaseFlows", "ShowcaseTestSupport", "Gallery",
        "Courses", "Profile", "Articles", "Entry", "Todos", "TodosStorage", "ExampleSupport",
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherWebHummingbird", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherTesting", package: "Tether"),
        .product(name: "TetherWebTesting", package: "Tether"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "LoopbackClient", package: "TetherTools"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TodosStorageTests",
      dependencies: [
        "Todos", "TodosStorage",
        .product(name: "TetherPubSub", package: "Tether"),
        .product(name: "TetherPubSubPostgres", package: "Tether"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Todos/StorageTests",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ShowcaseServerTests",
      dependencies: [
        "ShowcaseServer", "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos",
        "ExampleSupport",
        "ShowcaseFlows", "ShowcaseTerminal", "ShowcaseWeb",
        .product(name: "Tether", package: "Tether"),
        .product(name: "TetherFlow", package: "Tether"),
        .product(name: "TetherTerminal", package: "Tether"),
        .product(name: "TetherWeb", package: "Tether"),
        .product(name: "TetherTesting", package: "Tether"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
