import TetherFlow

/// A file input bound to a view model's upload (TetherFlow's `FileUpload`): a person chooses
/// files or drops them on it, and each file's entry shows its progress, a cancel button, or
/// why it was refused.
///
/// ```swift
/// fileInput(model.photos, label: "Add photos")
/// ```
///
/// The page offers the files' names, sizes and types; the session checks them against the
/// upload's rules and tells the page which to send. The bytes travel over the page's socket in
/// chunks, written to disk as they arrive, at most a window ahead of what the session has
/// acknowledged, within the session's byte budget. A refused file sends nothing.
///
/// Each entry is a row under the input: its name, then a `progress` bar and a Cancel button
/// while it arrives, or a sentence saying why it was refused or failed, with a Remove button.
/// A finished file stays until the view model takes it (`FileUpload.completed`, then
/// `remove(_:)`).
///
/// If the page's socket drops while a file arrives, the file fails ("The connection was
/// lost…") and is deleted: the page does not send it again, on this server or another, and
/// the person chooses it anew.
///
/// - Parameters:
///   - upload: The view model's upload.
///   - label: The input's visible label.
///   - attributes: The control's attributes (a class).
/// - Returns: The control.
@MainActor
public func fileInput<Action>(
  _ upload: FileUpload, label: String, _ attributes: Attribute...
) -> Markup<Action> {
  var classes = "upload"
  var extra: [(name: String, value: String)] = []
  for attribute in attributes where attribute.isAllowed {
    guard let value = attribute.value else { continue }
    if attribute.name == "class" {
      classes += " " + value
    } else {
      extra.append((attribute.name, value))
    }
  }
  return Markup(
    nodes: [
      .control { name, context, _ in
        let input = name + ".file"
        context.onUpload(input, upload)
        var inputAttributes: [(name: String, value: String)] = [
          ("type", "file"), ("data-upload", ""),
        ]
        if !upload.rules.accept.isEmpty {
          inputAttributes.append(("accept", upload.rules.accept.joined(separator: ",")))
        }
        if upload.rules.maximumCount > 1 { inputAttributes.append(("multiple", "")) }
        let rows = upload.entries.map { entry in
          FileEntryRow(entry: entry, upload: upload, id: name + ".e\(entry.id)").node(in: context)
        }
        return .element(
          "div", id: name, [("class", classes)] + extra,
          [
            .element(
              "label", id: name + ".drop", [("class", "upload-drop"), ("data-drop", input)],
              [
                .element("span", id: name + ".label", [], [.text(label)]),
                .element("input", id: input, inputAttributes),
              ]),
            .element(
              "ul", id: name + ".entries",
              [("class", "upload-entries"), ("aria-live", "polite")], rows),
          ])
      }
    ], isSingleExpression: true)
}

/// One entry of a ``fileInput(_:label:_:)``, as a row.
@MainActor
private struct FileEntryRow {
  let entry: FileUpload.Entry
  let upload: FileUpload
  let id: String

  func node(in context: WebRenderContext) -> HTMLNode {
    var children: [HTMLNode] = [
      .element("span", id: id + ".name", [("class", "upload-name")], [.text(entry.name)])
    ]
    let (entryID, upload) = (entry.id, upload)
    switch entry.state {
    case .receiving:
      children.append(
        .element(
          "progress", id: id + ".progress",
          [("max", "100"), ("value", String(entry.percent)), ("aria-label", entry.name)],
          [.text("\(entry.percent)%")]))
      children.append(button("Cancel", in: context) { upload.cancel(entryID) })
      return .element("li", id: id, [("class", "upload-entry")], children)
    case .finished:
      children.append(status("Received", refused: false))
    case .refused(let refusal):
      children.append(status(refusal.description, refused: true))
    case .failed(let reason):
      children.append(status(reason, refused: true))
    case .cancelled:
      children.append(status("Cancelled", refused: false))
    }
    children.append(button("Remove", in: context) { upload.remove(entryID) })
    return .element("li", id: id, [("class", "upload-entry")], children)
  }

  /// A button `title` for this entry (named for a screen reader with the file's name) that
  /// runs `action`.
  private func button(
    _ title: String, in context: WebRenderContext, _ action: @escaping () -> Void
  ) -> HTMLNode {
    let buttonID = id + "." + title.lowercased()
    context.onClick(buttonID, action)
    return .element(
      "button", id: buttonID, [("type", "button"), ("aria-label", "\(title) \(entry.name)")],
      [.text(title)])
  }

  private func status(_ text: String, refused: Bool) -> HTMLNode {
    .element(
      "span", id: id + ".status",
      [("class", refused ? "upload-status upload-refused" : "upload-status")], [.text(text)])
  }
}
