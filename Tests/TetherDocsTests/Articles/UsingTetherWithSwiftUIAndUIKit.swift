import Testing
import TetherTesting

// The compiled companion of UsingTetherWithSwiftUIAndUIKit.md. SwiftUI and UIKit exist on
// Apple's systems only: where they are missing, the few types the article's blocks use are
// stubbed below with the shapes of Apple's declarations, so the blocks are type-checked against
// the real Tether API on every platform (and against the real frameworks where they exist).
#if canImport(SwiftUI)
  import SwiftUI
#else
  // Nested in the article's namespace: this test target also imports TetherTerminal, whose
  // `Button` and `Label` must keep their names elsewhere.
  extension UsingTetherWithSwiftUIAndUIKitArticle {
    @MainActor protocol View {
      associatedtype Body: View
      @ViewBuilder var body: Body { get }
    }

    @resultBuilder enum ViewBuilder {
      static func buildBlock<Content: View>(_ content: Content) -> Content { content }
      static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    }

    struct ModifiedView<Content: View>: View {
      let content: Content
      var body: Never { fatalError("a stub's body is never rendered") }
    }

    struct List<Row: View>: View {
      init<Data: RandomAccessCollection>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> Row
      ) where Data.Element: Identifiable {}
      var body: Never { fatalError("a stub's body is never rendered") }
    }

    struct Button: View {
      init(_ title: String, action: @escaping @MainActor () -> Void) {}
      var body: Never { fatalError("a stub's body is never rendered") }
    }

    struct ProgressView: View {
      var body: Never { fatalError("a stub's body is never rendered") }
    }

    @MainActor class UIView {
      var isHidden = false
    }

    @MainActor class UIViewController {
      var title: String?
      init() {}
      func updateProperties() {}
    }
  }

  extension Never: UsingTetherWithSwiftUIAndUIKitArticle.View {
    var body: Never { self }
  }

  extension Optional: UsingTetherWithSwiftUIAndUIKitArticle.View
  where Wrapped: UsingTetherWithSwiftUIAndUIKitArticle.View {
    var body: Never { fatalError("a stub's body is never rendered") }
  }

  extension UsingTetherWithSwiftUIAndUIKitArticle.View {
    func overlay<Overlay: UsingTetherWithSwiftUIAndUIKitArticle.View>(
      @UsingTetherWithSwiftUIAndUIKitArticle.ViewBuilder content: () -> Overlay
    ) -> UsingTetherWithSwiftUIAndUIKitArticle.ModifiedView<Self> {
      .init(content: self)
    }

    func refreshable(action: @escaping @Sendable () async -> Void)
      -> UsingTetherWithSwiftUIAndUIKitArticle.ModifiedView<Self>
    {
      .init(content: self)
    }
  }
#endif

#if canImport(UIKit)
  import UIKit
#endif

enum UsingTetherWithSwiftUIAndUIKitArticle {
  struct Row: Identifiable, Equatable {
    var id: Int { index }
    var index: Int
    var title: String
  }

  @MainActor final class PhotoListViewModel {
    let title = "Popular"
    @Output private(set) var rows: [Row] = []
    @Output private(set) var isLoading = false
    private(set) var selected: [Int] = []
    private(set) var reloads = 0

    func userSelected(row: Int) { selected.append(row) }
    func reloadRequested() async {
      reloads += 1
      rows = [Row(index: 0, title: "Dawn")]
    }
  }

  struct PhotoListScreen: View {
    let viewModel: PhotoListViewModel

    var body: some View {
      List(viewModel.rows) { row in
        Button(row.title) { viewModel.userSelected(row: row.index) }
      }
      .overlay { if viewModel.isLoading { ProgressView() } }
      .refreshable { await viewModel.reloadRequested() }
    }
  }

  final class PhotoListViewController: UIViewController {
    let viewModel: PhotoListViewModel
    let spinner = UIView()

    init(viewModel: PhotoListViewModel) {
      self.viewModel = viewModel
      #if canImport(UIKit)
        super.init(nibName: nil, bundle: nil)
      #else
        super.init()
      #endif
    }

    #if canImport(UIKit)
      required init?(coder: NSCoder) { nil }
    #endif

    override func updateProperties() {
      super.updateProperties()
      spinner.isHidden = !viewModel.isLoading
      title = viewModel.title
    }
  }

  @MainActor @Suite struct Checks {
    @Test func theViewControllersRenderReadsTheOutputs() async {
      let viewModel = PhotoListViewModel()
      let controller = PhotoListViewController(viewModel: viewModel)
      controller.updateProperties()
      #expect(controller.spinner.isHidden)
      #expect(controller.title == "Popular")
      _ = PhotoListScreen(viewModel: viewModel)
    }
  }
}
