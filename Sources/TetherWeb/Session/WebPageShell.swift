import TetherFlow

/// What every page has around its screen: the title bar with Back, the sheet and the alert
/// as markup the session renders with the stack's rules, the document's head, and the page for
/// a path that names no screen.
@MainActor
enum WebPageShell {
  /// The page's title: the top screen's and the app's, or the app's alone when the stack has
  /// no title or the screen's is the app's (an app whose first screen is named after it).
  static func title(top screen: String?, app: String) -> String {
    guard let screen, screen != app else { return app }
    return "\(screen) · \(app)"
  }

  /// The page: a title bar with Back, the top screen, the sheet and the alert, each
  /// registering its gestures in the returned context.
  ///
  /// - Parameters:
  ///   - presenter: The stack, its views and the rules every view layer shares.
  ///   - appTitle: The title when the stack has none.
  ///   - chrome: The bar and alert markup the app writes itself, if any.
  ///   - store: The fields' bindings, kept from render to render.
  /// - Returns: The app element and the render's gestures.
  static func render(
    _ presenter: ScreenPresenter<any WebView>, appTitle: String,
    chrome: WebPageChrome = .standard, store: MarkupStore
  ) -> (HTMLNode, WebRenderContext) {
    let context = WebRenderContext(store: store)
    store.beginRender()
    defer { store.endRender() }
    let depth = presenter.depth
    let barContent = WebPageChrome.Bar(
      title: presenter.topTitle ?? appTitle, appTitle: appTitle, canGoBack: depth > 1)
    let bar: [HTMLNode]
    if let custom = chrome.bar {
      bar = custom(barContent).renderContent(of: "bar", in: context) { _ in }
    } else {
      bar = standardBar(barContent)
    }
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
      // The page starts on the button the keyboard is on (TetherFlow's alertFocus: the
      // default button); Tab moves the page's own focus, and Enter or a click presses it.
      let content = WebPageChrome.Alert(
        title: alert.title, message: alert.message,
        isConfirmationDialog: alert.style == .confirmationDialog,
        buttons: alert.buttons.enumerated().map { index, button in
          WebPageChrome.Button(
            index: index, title: button.title, isDestructive: button.role == .destructive,
            isFocused: index == presenter.alertFocus)
        })
      let respond = { [presenter] (action: WebPageChrome.Action) in
        switch action {
        case .respond(let index): presenter.respond(toButtonAt: index)
        }
      }
      let attributes: [(String, String)] =
        [("open", "")] + (content.isConfirmationDialog ? [("class", "confirmation")] : [])
      if let custom = chrome.alert {
        children.append(
          .element(
            "dialog", id: "alert", attributes + [("aria-label", content.title)],
            custom(content).renderContent(of: "alert", in: context, dispatch: respond)))
      } else {
        children.append(
          .element(
            "dialog", id: "alert", attributes + [("aria-labelledby", "alert.title")],
            standardAlert(content).renderContent(of: "alert", in: context, dispatch: respond)))
      }
    } else {
      children.append(.element("dialog", id: "alert", [], []))
    }
    return (.element("div", id: "app", [], children), context)
  }

  /// The library's title bar: Back when there is somewhere to go, then the title.
  private static func standardBar(_ bar: WebPageChrome.Bar) -> [HTMLNode] {
    var nodes: [HTMLNode] = []
    if bar.canGoBack {
      nodes.append(
        .element(
          "button", id: "back", [("type", "button"), ("class", "back"), ("data-back", "")],
          [.text("‹ Back")]))
    }
    nodes.append(.element("h1", id: "title", [], [.text(bar.title)]))
    return nodes
  }

  /// The library's alert: its title, its message and its buttons.
  private static func standardAlert(_ alert: WebPageChrome.Alert) -> Markup<WebPageChrome.Action> {
    Markup(nodes: [
      .control { _, _, _ in .element("h2", id: "alert.title", [], [.text(alert.title)]) },
      .control { _, _, _ in .element("p", id: "alert.message", [], [.text(alert.message)]) },
      .element(
        MarkupElement(
          tag: "div", attributes: [.class("buttons")],
          children: alert.buttons.flatMap { alertButton($0).nodes })),
    ])
  }

  /// The id of an alert's button: the same whoever draws the alert, so a page's focus and a
  /// test's click find it.
  static func alertButtonID(_ index: Int) -> String { "alert.b\(index)" }

  /// How a page carries its script and style sheets.
  enum Assets {
    /// Linked: the page names their URLs (the app's style sheet too, if it has one).
    case linked(script: String, style: String, appStyle: String?, hooks: [String] = [])
    /// In the page itself, with the app's style sheet if it has one: nothing to fetch before
    /// the socket opens.
    case inline(appStyle: String?, hooks: [String] = [])
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
    case .linked(let scriptURL, let style, let appStyle, let hooks):
      styles = link(style) + (appStyle.map { "\n" + link($0) } ?? "")
      script =
        hookScripts(hooks)
        + "<script src=\"\(HTMLEscaping.attribute(scriptURL))\"\(attributes)></script>"
    case .inline(let appStyle, let hooks):
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
      script = hookScripts(hooks) + WebAssets.inlineScript(attributes: attributes)
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

  /// The hooks' scripts (``WebHook``), each loaded from its address before the client, which
  /// mounts them: a classic script runs in the order the page names it.
  static func hookScripts(_ urls: [String]) -> String {
    urls.map { "<script src=\"\(HTMLEscaping.attribute($0))\"></script>\n" }.joined()
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
