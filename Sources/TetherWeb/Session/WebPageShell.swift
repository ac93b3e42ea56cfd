import TetherFlow

/// What every page has around its screen: the title bar with Back, the sheet and the alert
/// as markup the session renders with the stack's rules, the document's head, and the page for
/// a path that names no screen.
@MainActor
enum WebPageShell {
  /// The page's title: the top screen's and the app's, or the app's alone when the stack has
  /// no title or the screen's is the app's (an app whose first screen is named after it).
  static func title(screens: [String], app: String) -> String {
    guard let screen = screens.last, screen != app else { return app }
    return "\(screen) · \(app)"
  }

  /// The page: a title bar with Back, the top screen, the sheet and the alert, each
  /// registering its gestures in the returned context.
  ///
  /// - Parameters:
  ///   - presenter: The stack, its views and the rules every view layer shares.
  ///   - appTitle: The title when the stack has none.
  ///   - store: The fields' bindings, kept from render to render.
  /// - Returns: The app element and the render's gestures.
  static func render(
    _ presenter: ScreenPresenter<any WebView>, appTitle: String, store: MarkupStore
  ) -> (HTMLNode, WebRenderContext) {
    let context = WebRenderContext(store: store)
    store.beginRender()
    defer { store.endRender() }
    let titles = presenter.titles
    let depth = titles.count
    var bar: [HTMLNode] = []
    if depth > 1 {
      bar.append(
        .element(
          "button", id: "back", [("type", "button"), ("class", "back"), ("data-back", "")],
          [.text("‹ Back")]))
    }
    bar.append(.element("h1", id: "title", [], [.text(titles.last ?? appTitle)]))
    var screen: [HTMLNode] = []
    if let view = presenter.topView {
      screen.append(view.render(id: "s\(depth)", in: context))
    }
    // Behind an open alert or sheet the bar and the screen are inert: no pointer, no focus,
    // no Tab stop, so focus stays in the dialog.
    let sheetTitle = presenter.sheetTitle
    let behind: [(String, String)] =
      presenter.alert == nil && sheetTitle == nil ? [] : [("inert", "")]
    var children: [HTMLNode] = [
      .element("header", id: "bar", behind, bar),
      .element("main", id: "screen", behind, screen),
    ]
    if let sheetTitle, let sheet = presenter.sheetView {
      context.onClick("sheet.close") { [presenter] in presenter.dismissSheet() }
      let content = sheet.render(id: "sheet.s", in: context)
      // Focus goes into the sheet: to what its view asks for, else its Close button.
      if presenter.alert == nil, context.requestedFocus?.hasPrefix("sheet.") != true {
        context.focus = "sheet.close"
      }
      // Under an alert the sheet is inert too.
      let sheetBehind: [(String, String)] = presenter.alert == nil ? [] : [("inert", "")]
      children.append(
        .element(
          "dialog", id: "sheet",
          [
            ("open", ""), ("class", "sheet"), ("aria-modal", "true"),
            ("aria-labelledby", "sheet.title"),
          ] + sheetBehind,
          [
            .element(
              "div", id: "sheet.bar", [("class", "sheet-bar")],
              [
                .element("h2", id: "sheet.title", [], [.text(sheetTitle)]),
                .element(
                  "button", id: "sheet.close",
                  [("type", "button"), ("class", "sheet-close"), ("aria-label", "Close")],
                  [.text("✕")]),
              ]),
            content,
          ]))
    } else {
      children.append(.element("dialog", id: "sheet", [], []))
    }
    if let alert = presenter.alert {
      let buttons = alert.buttons.enumerated().map { index, button -> HTMLNode in
        let id = "alert.b\(index)"
        context.onClick(id) { [presenter] in presenter.respond(toButtonAt: index) }
        // The page starts on the button the keyboard is on (TetherFlow's alertFocus: the
        // default button); Tab moves the page's own focus, and Enter or a click presses it.
        if index == presenter.alertFocus { context.focus = id }
        let className = button.role == .destructive ? "alert-button destructive" : "alert-button"
        return .element(
          "button", id: id, [("type", "button"), ("class", className)], [.text(button.title)])
      }
      children.append(
        .element(
          "dialog", id: "alert",
          [("open", ""), ("aria-labelledby", "alert.title")]
            + (alert.style == .confirmationDialog ? [("class", "confirmation")] : []),
          [
            .element("h2", id: "alert.title", [], [.text(alert.title)]),
            .element("p", id: "alert.message", [], [.text(alert.message)]),
            .element("div", id: "alert.buttons", [("class", "buttons")], buttons),
          ]))
    } else {
      children.append(.element("dialog", id: "alert", [], []))
    }
    return (.element("div", id: "app", [], children), context)
  }

  /// How a page carries its script and style sheets.
  enum Assets {
    /// Linked: the page names their URLs (the app's style sheet too, if it has one).
    case linked(script: String, style: String, appStyle: String?)
    /// In the page itself, with the app's style sheet if it has one: nothing to fetch before
    /// the socket opens.
    case inline(appStyle: String?)
  }

  /// The whole document of a session's page: the head (title, icon, style sheets), the app
  /// element, and the page's script with what its socket shows first — the session, its
  /// secret, the digest of the tree it was served, the element to focus, its resume token.
  ///
  /// - Parameters:
  ///   - tree: The app element.
  ///   - title: The page's title.
  ///   - session: The session's id.
  ///   - secret: The session's secret (``WebSession/secret``).
  ///   - focus: The element to focus, if any.
  ///   - token: The page's first resume token, if it has one.
  ///   - assets: How the script and style sheets are carried.
  ///   - base: The path the app is mounted at (`""` at the root).
  /// - Returns: The document.
  static func document(
    _ tree: HTMLNode, title: String, session: String, secret: String, focus: String?,
    token: String?, assets: Assets, base: String
  ) -> String {
    var attributes = " data-session=\"\(HTMLEscaping.attribute(session))\""
    attributes += " data-secret=\"\(HTMLEscaping.attribute(secret))\""
    attributes += " data-shown=\"\(KeptPage.shownDigest(of: tree))\""
    if !base.isEmpty { attributes += " data-base=\"\(HTMLEscaping.attribute(base))\"" }
    if let focus { attributes += " data-focus=\"\(HTMLEscaping.attribute(focus))\"" }
    if let token { attributes += " data-resume=\"\(HTMLEscaping.attribute(token))\"" }
    let styles: String
    let script: String
    switch assets {
    case .linked(let scriptURL, let style, let appStyle):
      styles = link(style) + (appStyle.map { "\n" + link($0) } ?? "")
      script = "<script src=\"\(HTMLEscaping.attribute(scriptURL))\"\(attributes)></script>"
    case .inline(let appStyle):
      var sheets = WebAssets.inlineStyle
      if let appStyle {
        // A sheet that would end its element early is linked instead (the server serves it
        // at /app.css).
        sheets +=
          "\n"
          + (WebAssets.fitsRawTextElement(appStyle)
            ? "<style>\(appStyle)</style>" : link(base + "/app.css"))
      }
      styles = sheets
      script = WebAssets.inlineScript(attributes: attributes)
    }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <link rel="icon" href="data:,">
      <title>\(HTMLEscaping.text(title))</title>
      \(styles)
      </head><body>\(tree.html)
      \(script)
      </body></html>
      """
  }

  /// A style sheet's link.
  static func link(_ url: String) -> String {
    "<link rel=\"stylesheet\" href=\"\(HTMLEscaping.attribute(url))\">"
  }

  /// The page for a path that names no screen (served with 404): what was asked for, why it
  /// is not there, and a link home.
  static func notFoundPage(
    path: String, reason: String, appTitle: String, base: String = ""
  ) -> String {
    """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,">
    <title>Not found · \(HTMLEscaping.text(appTitle))</title>
    <link rel="stylesheet" href="\(HTMLEscaping.attribute(base))/tether.css">
    </head><body><div id="app"><header><h1>Page not found</h1></header>
    <main><p>\(HTMLEscaping.text(path)): \(HTMLEscaping.text(reason))</p>
    <p><a href="\(HTMLEscaping.attribute(base))/">Go to the home page</a></p></main></div></body></html>
    """
  }
}
