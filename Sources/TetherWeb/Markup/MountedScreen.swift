import Foundation
import Tether
import TetherFlow

/// A ``WebScreen`` as its session holds it: the screen's body rendered under the id its place
/// on the page gives it, and what a session asks of a screen that the screen does not write —
/// the keys its lists answer, the state a resumed session brings back, whether its writes are
/// done — found while rendering or asked of its view model.
@MainActor
final class MountedScreen: WebView {
  let screen: any WebScreen
  /// The screen's view models, as the app names them (its destination, the object it tracks):
  /// asked whether they are `RestorableViewModel` or `SettlingViewModel`.
  private let viewModels: [AnyObject]
  /// The context of the last render: the lists found in it (and in the components and kept
  /// rows it adopted) answer keys and carry their selections.
  private var rendered: WebRenderContext?
  private var renderedID: String?
  /// List selections of a token, by name under the screen's id, until their lists are drawn.
  private var pendingSelections: [String: String] = [:]
  /// The state of the screen's lists, kept while the screen is on the stack (drawn or not).
  private let controls = ControlStates()

  init(_ screen: any WebScreen, viewModels: [AnyObject]) {
    self.screen = screen
    self.viewModels = viewModels
  }

  /// The objects a screen's view model may be: the app's tracked object, then its destination
  /// when that is an object (an enum destination is not one: its tracked object names the view
  /// model inside it).
  static func viewModels<Destination>(
    of screen: Screen<Destination>,
    _ trackedObject: (Screen<Destination>) -> AnyObject
  ) -> [AnyObject] {
    var objects = [trackedObject(screen)]
    if type(of: screen.destination as Any) is AnyClass {
      objects.append(screen.destination as AnyObject)
    }
    return objects
  }

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    let own = WebRenderContext(store: context.store)
    for (name, key) in pendingSelections { context.store.restoreSelection(id + name, key) }
    pendingSelections.removeAll()
    let outer = context.store.screenControls
    context.store.screenControls = controls
    let node = Self.render(screen, id: id, in: own, mountedAs: self)
    context.store.screenControls = outer
    controls.endRender()
    rendered = own
    renderedID = id
    context.adopt(own)
    return node
  }

  private static func render<Screen: WebScreen>(
    _ screen: Screen, id: String, in context: WebRenderContext, mountedAs mounted: MountedScreen
  ) -> HTMLNode {
    // The handlers reach the screen through its mount, weakly: a component's render keeps
    // them, and the view model it observes keeps the component, so a handler holding the
    // screen (a struct screen holds its view model) would keep the view model alive.
    screen.body.render(id: id, in: context) { [weak mounted] action in
      (mounted?.screen as? Screen)?.handle(action)
    }
  }

  private var lists: [any SelectableState] { rendered?.selectables ?? [] }

  /// ↑/↓, Home/End and Enter move and choose in the first list that takes them.
  func handle(key: WebKey) -> Bool {
    lists.contains { $0.handle(key.screenKey) }
  }

  // MARK: Restoration

  /// What a token carries for a screen: its view model's value (as JSON) and each list's
  /// selected row, by the list's name under the screen.
  private struct Kept: Codable {
    var m: String?
    var l: [String: String]?
  }

  var restorationKey: String? {
    var kept = Kept()
    if let model = viewModels.lazy.compactMap({ $0 as? any RestorableViewModel }).first {
      kept.m = Self.encoded(model)
    }
    if let id = renderedID {
      var selections: [String: String] = [:]
      for list in lists {
        guard let key = list.restorationKey, list.name.hasPrefix(id) else { continue }
        selections[String(list.name.dropFirst(id.count))] = key
      }
      if !selections.isEmpty { kept.l = selections }
    }
    guard kept.m != nil || kept.l != nil,
      let data = try? JSONEncoder().encode(kept)
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  func restore(_ key: String) {
    // A key is the signed token's: a key this server cannot read (another version's) restores
    // nothing rather than failing the resume.
    guard let kept = try? JSONDecoder().decode(Kept.self, from: Data(key.utf8)) else { return }
    if let value = kept.m,
      let model = viewModels.lazy.compactMap({ $0 as? any RestorableViewModel }).first
    {
      Self.restore(model, from: value)
    }
    pendingSelections = kept.l ?? [:]
  }

  private static func encoded<Model: RestorableViewModel>(_ model: Model) -> String? {
    guard let value = model.restoration, let data = try? JSONEncoder().encode(value) else {
      return nil
    }
    return String(decoding: data, as: UTF8.self)
  }

  private static func restore<Model: RestorableViewModel>(_ model: Model, from json: String) {
    guard let value = try? JSONDecoder().decode(Model.Restoration.self, from: Data(json.utf8))
    else { return }
    model.restore(value)
  }

  // MARK: Settling

  private var settling: (any SettlingViewModel)? {
    viewModels.lazy.compactMap { $0 as? any SettlingViewModel }.first
  }

  var isSettled: Bool { settling?.isSettled ?? true }

  func settled() async { await settling?.settled() }
}

/// `screen` as the hand-built ``WebView`` its session holds: for a baseline that sets a
/// hand-built view beside markup screens in one app.
///
/// - Parameters:
///   - screen: The screen.
///   - viewModels: The objects asked whether they keep state or settle.
/// - Returns: The view.
@_spi(HandBuilt)
@MainActor
public func webView(for screen: any WebScreen, viewModels: [AnyObject] = []) -> any WebView {
  MountedScreen(screen, viewModels: viewModels)
}
