import Testing
import Tether

@testable import TetherFlow

/// TetherFlow's own state is declared as outputs (`@Output public private(set) var`), so what a
/// view reads is a plain `Property` that no cast can write through. Checked two ways: each face
/// is not a `MutableProperty`, and no stored property of the type holds one, so a face added
/// later in the old two-declaration style (a private `MutableProperty` behind a `Property`
/// accessor) fails here too.
@MainActor
@Suite struct ReadOnlyFaceTests {
  struct Row: Identifiable, Equatable {
    let id: Int
  }

  enum Tab: String, Equatable, CaseIterable {
    case first, second
  }

  /// The names of stored properties holding a `MutableProperty`, directly or through an
  /// optional or an `@Output`'s storage.
  private func writableState(of object: AnyObject) -> [String] {
    var names: [String] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        if holdsMutableProperty(child.value) { names.append(child.label ?? "?") }
      }
      mirror = current.superclassMirror
    }
    return names
  }

  private func holdsMutableProperty(_ value: Any) -> Bool {
    if String(describing: type(of: value)).hasPrefix("MutableProperty<") { return true }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional || mirror.displayStyle == .struct else { return false }
    return mirror.children.contains { holdsMutableProperty($0.value) }
  }

  @Test func theStacksStateCannotBeWrittenThroughItsFaces() {
    let stack = ScreenStack<String>()
    stack.setRoot(Screen("home", title: "Home"))
    stack.presentSheet(Screen("sheet", title: "Sheet"), onDismiss: {})
    stack.present(ScreenAlert(title: "Alert", message: "Message"), onResponse: { _ in })
    #expect(writableState(of: stack) == [])
    #expect(!(stack.$screens is MutableProperty<[Screen<String>]>))
    #expect(!(stack.$sheet is MutableProperty<Screen<String>?>))
    #expect(!(stack.$alert is MutableProperty<ScreenAlert?>))
    #expect(!(stack.$alertFocus is MutableProperty<Int?>))
    #expect(!(stack.$path is MutableProperty<ScreenPath>))
    // What the faces show is the stack's state.
    #expect(stack.$screens.value.map(\.title) == ["Home"])
    #expect(stack.$sheet.value?.title == "Sheet")
    #expect(stack.$alert.value?.title == "Alert")
  }

  @Test func aListSelectionsIndexCannotBeWrittenThroughItsFace() {
    let rows = MutableProperty([Row(id: 1), Row(id: 2)])
    let selection = ListSelection(rows: rows, onActivate: { _ in })
    selection.handle(.down)
    #expect(writableState(of: selection) == ["rows"], "its owner's rows, kept privately")
    #expect(!(selection.$index is MutableProperty<Int>))
    #expect(selection.$index.value == 1)
  }

  @Test func aTabSelectionsOnlyWritableStateIsThePathTailTheScreenWrites() {
    let tabs = TabSelection(Tab.allCases, selected: .first) { $0.rawValue }
    tabs.select(.second)
    #expect(writableState(of: tabs) == ["pathTail"], "an input: a browser's Back sets it")
    #expect(!(tabs.$selected is MutableProperty<Tab>))
    #expect(tabs.$selected.value == .second)
  }
}
