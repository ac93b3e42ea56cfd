import TetherFlow

/// A session's routing of the page's messages to view-model inputs, with the rules every view
/// layer shares: an alert or a sheet is modal, an edit is recorded as what the page shows, a
/// key goes to the alert before the screen.
extension WebSession {
  /// Routes one message to a view-model input.
  func handle(_ message: ClientMessage) async -> WebSessionError? {
    switch message {
    case .click(let id):
      // TetherFlow's rule: an alert is modal. Only its own buttons take clicks; the page shows
      // the screen behind it inert, and a click sent anyway is refused.
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handler = context.clickHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      handler()
    case .doubleClick(let id):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handler = context.doubleClickHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      handler()
    case .hook(let id, let event, let value):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handler = context.hookHandler(for: id, event: event) else {
        return refuse(
          .undeclaredHookEvent(id: String(id.prefix(80)), event: String(event.prefix(64))))
      }
      handler(value)
    case .upload(let id, let files):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let upload = context.uploadHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      uploads.offer(files, on: id, to: upload)
    case .input(let id, _, _), .check(let id, _, _, _), .submit(let id), .cancel(let id),
      .focus(let id), .blur(let id):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handlers = context.fieldHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      switch message {
      case .input(_, let value, let sequence):
        // The page shows what was typed: the tree it is diffed against says so first, so the
        // model taking the text is no change to send back (no echo), and only a change of the
        // model's own (a trimmed or cleared field) goes out.
        page.pageEdited([("value", value)], on: id, edit: sequence)
        handlers.input?(value, sequence)
      case .check(_, let checked, let sequence, let version):
        page.pageEdited([("checked", checked ? "" : nil)], on: id, edit: sequence)
        handlers.check?(checked, sequence, version)
      case .submit: handlers.submit?()
      case .cancel:
        // Escape in a sheet's field that has no cancel of its own closes the sheet, as
        // Escape anywhere else in it does.
        if let cancel = handlers.cancel {
          cancel()
        } else if id.hasPrefix("sheet.") {
          presenter.dismissSheet()
        }
      case .focus: handlers.focus?()
      case .blur: handlers.blur?()
      default: break
      }
    case .key(let key):
      // TetherFlow's rule: an alert takes every key (Enter its default button, Escape its
      // cancel button); otherwise the top screen's view gets it. Back is the page's own
      // (a navigate message), so no key here pops.
      presenter.route(key.screenKey) { $0.handle(key: key) }
    case .dismissAlert:
      // The page's dialog was cancelled (Escape): the alert's cancel button.
      presenter.handleAlertKey(.cancel)
    case .hello:
      // Read by the server before the socket was attached; a second one changes nothing.
      return nil
    case .navigate(let path):
      let target = ScreenPath(parsing: path)
      // A path the stack holds (an earlier screen, or another tail of one: a list's filter)
      // is shown at once; any other is opened by the app's flows.
      if !presenter.show(target) {
        await open(target)
      }
    }
    return nil
  }

  /// The refusal of a gesture behind an open alert or sheet, if it is one: an alert takes
  /// gestures only on its own buttons; a sheet (under no alert) only in itself.
  private func refusalBehindModal(_ id: String) -> WebSessionError? {
    if presenter.alert != nil {
      guard !id.hasPrefix("alert.") else { return nil }
    } else if presenter.sheetTitle != nil {
      guard !id.hasPrefix("sheet.") else { return nil }
    } else {
      return nil
    }
    let shown = String(id.prefix(80))
    return refuse(presenter.alert != nil ? .behindModal(id: shown) : .behindSheet(id: shown))
  }

  func refuse(_ error: WebSessionError) -> WebSessionError {
    refused.append(error)
    if refused.count > 20 { refused.removeFirst() }
    return error
  }
}
