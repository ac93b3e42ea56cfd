import Tether
import TetherFlow
import TetherTerminal

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherTerminal`
// (DocSnippetTests checks that each appears here). Nothing here runs; it must compile.
enum TetherTerminalDocComments {
  // Sources/TetherTerminal/Input/TerminalFileReader.swift
  @MainActor final class AddPhotoModel {
    let pathText = MutableProperty("")
    let files = FileUpload()
  }

  final class AddPhotoScreen: TerminalScreen {
    enum Action { case pathEntered }
    let model: AddPhotoModel
    private let reader = TerminalFileReader()

    init(_ model: AddPhotoModel) { self.model = model }

    var body: TerminalMarkup<Action> {
      textField(model.pathText, placeholder: "Path to a photo").onSubmit(.pathEntered)
    }

    func handle(_ action: Action) { reader.offer(path: model.pathText.value, to: model.files) }
  }
}
