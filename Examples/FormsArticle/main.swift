import Foundation
import Tether
import TetherFlow
import TetherWeb
import TetherWebHummingbird

/// A sign-up form: a name and an email address.
@MainActor
final class SignUpViewModel {
  /// The name as typed: the name field writes it.
  let name = MutableProperty("")
  /// The email address as typed: the email field writes it.
  let email = MutableProperty("")

  /// What is wrong with the name, once it has been typed in.
  let nameError: Property<String?>
  /// What is wrong with the email address, once it has been typed in.
  let emailError: Property<String?>
  /// Whether Sign up may be pressed.
  let canSubmit: Property<Bool>
  /// The last confirmation, after a sign-up.
  @Output private(set) var confirmation: String? = nil

  init() {
    // A derived property delivers whenever its source does, so each keystroke would deliver
    // the same message again: `skipRepeats()` keeps only changes, which is what a view shows.
    nameError = name.map { $0.isEmpty ? nil : Self.problem(withName: $0) }.skipRepeats()
    emailError = email.map { $0.isEmpty ? nil : Self.problem(withEmail: $0) }.skipRepeats()
    // One rule for the messages and the button: valid means no problem with either field.
    canSubmit = name.combineLatest(with: email).map { name, email in
      Self.problem(withName: name) == nil && Self.problem(withEmail: email) == nil
    }.skipRepeats()
  }

  static func problem(withName name: String) -> String? {
    name.trimmingCharacters(in: .whitespaces).count < 2
      ? "Your name needs at least 2 letters." : nil
  }

  static func problem(withEmail email: String) -> String? {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
    return valid ? nil : "That does not look like an email address."
  }

  /// The person pressed Sign up (or Enter in a field).
  func submit() {
    guard canSubmit.value else { return }
    confirmation = "Welcome, \(name.value.trimmingCharacters(in: .whitespaces))!"
    name.value = ""
    email.value = ""
  }
}

enum SignUpDestination {
  case signUp(SignUpViewModel)
}

/// The app's root flow: one screen, the form.
@MainActor
final class SignUpFlow: FlowController {
  func start(on navigator: any Navigator<SignUpDestination>) -> Screen<SignUpDestination> {
    Screen(.signUp(SignUpViewModel()), title: "Sign up", owner: self)
  }
}

@MainActor
final class SignUpScreen: WebScreen {
  enum Action { case submit }
  private let form: SignUpViewModel

  init(_ form: SignUpViewModel) {
    self.form = form
  }

  var body: Markup<Action> {
    vstack {
      textField(form.name, placeholder: "Your name", label: "Name", .class("name"))
        .onSubmit(.submit)
      if let problem = form.nameError.value {
        p(.class("error"), .role("alert")) { problem }
      }
      textField(
        form.email, type: .email, placeholder: "you@example.com", label: "Email",
        .class("email")
      )
      .onSubmit(.submit)
      if let problem = form.emailError.value {
        p(.class("error"), .role("alert")) { problem }
      }
      button("Sign up", .disabled(!form.canSubmit.value)).onClick(.submit)
      if let confirmation = form.confirmation {
        p(.class("confirmation"), .role("status")) { confirmation }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .submit: form.submit()
    }
  }
}

let app = WebApp(title: "Sign up", rootFlow: { SignUpFlow() }) { screen in
  switch screen.destination {
  case .signUp(let form): SignUpScreen(form)
  }
}

let port = ProcessInfo.processInfo.environment["PORT"].flatMap { Int($0) } ?? 8080
try await TetherWebServer.run(app, port: port) { port in
  FileHandle.standardOutput.write(Data("http://127.0.0.1:\(port)\n".utf8))
}
