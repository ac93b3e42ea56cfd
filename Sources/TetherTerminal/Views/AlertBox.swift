import Tether
import TetherFlow

/// A modal box with a title, a message and a dismiss hint, drawn over the screen.
@MainActor
final class AlertBox {
  private let alert: ScreenAlert
  private let focus: Int

  /// Creates a box.
  ///
  /// - Parameters:
  ///   - alert: The alert to draw.
  ///   - focus: The button the keyboard is on (`ScreenStack.alertFocus`); by default the
  ///     alert's first (`ScreenAlert.initialFocus`).
  init(_ alert: ScreenAlert, focus: Int? = nil) {
    self.alert = alert
    self.focus = focus ?? alert.initialFocus
  }

  /// Draws the box centered in `frame`: as wide as its title, message and buttons need, up
  /// to the frame's width.
  func draw(in canvas: inout Canvas, frame: Rect) {
    if alert.style == .confirmationDialog {
      drawActions(in: &canvas, frame: frame)
      return
    }
    let message = alert.message
    // The keys are TetherFlow's rule: Enter presses the button the keyboard is on (shown in
    // reverse, marked "Enter"), Esc the cancel button, Tab and the arrows move.
    let labels = alert.buttons.enumerated().map { index, button in
      var keys: [String] = []
      if index == focus { keys.append("Enter") }
      if button == alert.escapeButton { keys.append("Esc") }
      return keys.isEmpty
        ? "[ \(button.title) ]" : "[ \(button.title) (\(keys.joined(separator: ", "))) ]"
    }
    let buttonsWidth = labels.map(DisplayWidth.of).reduce(0, +) + max(0, labels.count - 1)
    let wanted = max(
      24, min(56, DisplayWidth.of(message) + 6), DisplayWidth.of(alert.title) + 8,
      buttonsWidth + 4)
    let width = min(frame.width, wanted)
    guard width >= 6 else { return }
    let lines = TextWrapping.wrap(message, width: width - 4)
    let hint = alert.buttons.count > 1 ? "Tab or ←/→ to move" : ""
    let height = min(frame.height, lines.count + (hint.isEmpty ? 5 : 6))
    let x = frame.x + (frame.width - width) / 2
    let y = frame.y + (frame.height - height) / 2
    canvas.drawBox(
      Rect(x: x, y: y, width: width, height: height), title: alert.title,
      titleStyle: CellStyle(bold: true, foreground: .yellow))
    for (index, line) in lines.enumerated() where 2 + index < height - 2 {
      canvas.draw(line, x: x + 2, y: y + 2 + index, maxWidth: width - 4)
    }
    let buttonsRow = y + height - (hint.isEmpty ? 2 : 3)
    var column = x + max(2, (width - buttonsWidth) / 2)
    for (index, label) in labels.enumerated() {
      let room = x + width - 2 - column
      guard room > 0 else { break }
      canvas.draw(
        label, x: column, y: buttonsRow, maxWidth: room,
        style: CellStyle(bold: true, inverse: index == focus, foreground: .green))
      column += DisplayWidth.of(label) + 1
    }
    if !hint.isEmpty {
      canvas.draw(
        hint, x: x + max(2, (width - DisplayWidth.of(hint)) / 2), y: y + height - 2,
        maxWidth: width - 4, style: CellStyle(dim: true))
    }
  }

  /// A confirmation dialog: the actions one under another, each a row as wide as the box, the
  /// one the keyboard is on in reverse.
  private func drawActions(in canvas: inout Canvas, frame: Rect) {
    let labels = alert.buttons.enumerated().map { index, button in
      var keys: [String] = []
      if index == focus { keys.append("Enter") }
      if button == alert.escapeButton { keys.append("Esc") }
      return keys.isEmpty ? button.title : "\(button.title)  (\(keys.joined(separator: ", ")))"
    }
    let widest = labels.map(DisplayWidth.of).max() ?? 0
    let wanted = max(
      28, min(56, DisplayWidth.of(alert.message) + 6), DisplayWidth.of(alert.title) + 8,
      widest + 8)
    let width = min(frame.width, wanted)
    guard width >= 8 else { return }
    let lines = alert.message.isEmpty ? [] : TextWrapping.wrap(alert.message, width: width - 4)
    let hint = "↑/↓ or Tab to move"
    let top = lines.isEmpty ? 2 : lines.count + 3
    let height = min(frame.height, top + labels.count + 2)
    let x = frame.x + (frame.width - width) / 2
    let y = frame.y + (frame.height - height) / 2
    canvas.drawBox(
      Rect(x: x, y: y, width: width, height: height), title: alert.title,
      titleStyle: CellStyle(bold: true, foreground: .yellow))
    for (index, line) in lines.enumerated() where 2 + index < height - 1 {
      canvas.draw(line, x: x + 2, y: y + 2 + index, maxWidth: width - 4)
    }
    for (index, label) in labels.enumerated() where y + top + index < y + height - 1 {
      let destructive = alert.buttons[index].role == .destructive
      let row =
        " " + label + String(repeating: " ", count: max(0, width - 6 - DisplayWidth.of(label)))
      canvas.draw(
        row, x: x + 2, y: y + top + index, maxWidth: width - 4,
        style: CellStyle(
          bold: true, inverse: index == focus, foreground: destructive ? .red : .green))
    }
    canvas.draw(
      " \(hint) ", x: x + max(2, width - 4 - DisplayWidth.of(hint)), y: y + height - 1,
      maxWidth: width - 4, style: CellStyle(dim: true))
  }
}
