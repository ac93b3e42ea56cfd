import Tether
import TetherFlow
import TetherTerminal

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherTerminal`
// (DocSnippetTests checks that each appears here). Nothing here runs; it must compile.
enum TetherTerminalDocComments {
  @MainActor final class FormViewModel {
    let newTitle = MutableProperty("")
    let remembers = MutableProperty(false)
    func addRequested() {}
  }

  @MainActor static func views(viewModel: FormViewModel) -> [any TerminalView] {
    [
      TextField(
        viewModel.newTitle, placeholder: "What needs to be done?",
        onSubmit: { viewModel.addRequested() }),
      Checkbox("Remember me", isOn: viewModel.remembers),
    ]
  }

  // Sources/TetherTerminal/Input/TerminalFileReader.swift
  @MainActor final class AddPhotoModel {
    let pathText = MutableProperty("")
    let files = FileUpload()
  }

  @MainActor static func pathField(model: AddPhotoModel) -> TextField {
    let reader = TerminalFileReader()
    let field = TextField(
      model.pathText, placeholder: "Path to a photo",
      onSubmit: { reader.offer(path: model.pathText.value, to: model.files) })
    return field
  }
}
