import ExampleSupport
import Foundation

/// The embedded articles: some as models, some as dictionaries, including dictionaries with
/// missing and wrongly typed keys (which must show fallbacks, not crash).
public struct BundledArticleService: ArticleService {
  /// The articles that are typed models.
  public static let models: [Article] = [
    Article(
      id: 1, title: "MVVM without the desperation",
      body: "View models hold state; views bind to it. Nothing else.",
      date: Date(timeIntervalSince1970: 1_506_867_811), thumbnail: relative("/thumbnails/mvvm.pgm")),
    Article(
      id: 2, title: "流程控制器：把导航移出视图",
      body: "Flow controllers own navigation and dependency injection.\nViews stay passive.",
      date: Date(timeIntervalSince1970: 1_526_000_000), thumbnail: relative("/thumbnails/flow.pgm"),
      saved: true),
  ]

  /// Every record, as the service returns it.
  public static let records: [ArticleRecord] =
    models.map(ArticleRecord.model) + [
      .dictionary([
        "id": .number(3), "title": .string("Binding a thumbnail that arrives later"),
        "body": .string("Property-level binding solves seed 003's open problem."),
        "date": .string("2018-06-01T09:30:00Z"), "thumbnail": .string("/thumbnails/binding.pgm"),
      ]),
      .dictionary([
        "id": .number(4), "title": .string("Статья без даты"),
        "body": .string("Ключ date отсутствует."),
        "thumbnail": .string("/thumbnails/nodate.pgm"),
      ]),
      .dictionary([
        "id": .number(5), "title": .number(42), "body": .null, "date": .string("next Tuesday"),
        "thumbnail": .number(7),
      ]),
    ]

  /// Creates the service.
  public init() {}

  /// The bundled records.
  public func articles() async throws(ServiceError) -> [ArticleRecord] {
    Self.records
  }
}

/// A relative URL for a server path (the bundled paths are constants, always valid).
private func relative(_ path: String) -> URL {
  URL(string: path) ?? URL(fileURLWithPath: path)
}
