import Testing
import TetherTesting

@testable import Tether

/// A view that owns a lifetime: the usual binding target.
private final class Label: LifetimeProvider {
  let lifetime = Lifetime()
  var text: String? = nil
  var isHidden = false
}

/// A framework-style object that cannot own a lifetime.
private final class PlainLabel {
  var text = ""
}

@MainActor
@Suite struct BindingTests {
  @Test func bindingIntoKeyPathTakesCurrentValueThenChanges() {
    let title = MutableProperty("Loading")
    let label = Label()
    label.bindable(\.text) <~ title
    #expect(label.text == "Loading")
    title.value = "Popular"
    #expect(label.text == "Popular")
  }

  @Test func temporaryDerivedSourceLivesAsLongAsTheTarget() {
    let isLoading = MutableProperty(true)
    let label = Label()
    label.bindable(\.isHidden) <~ isLoading.map { !$0 }
    #expect(label.isHidden == false)
    isLoading.value = false
    #expect(label.isHidden == true)
  }

  @Test func discardedBindingTokenKeepsTheBindingAlive() {
    let title = MutableProperty("a")
    let label = Label()
    do {
      _ = label.bindable(\.text) <~ title
    }
    title.value = "b"
    #expect(label.text == "b")
  }

  @Test func bindingEndsWhenTheTargetDeallocates() {
    let title = MutableProperty("a")
    weak var weakLabel: Label?
    do {
      let label = Label()
      weakLabel = label
      label.bindable(\.text) <~ title
      #expect(label.text == "a")
      #expect(title.observerCount == 1)
    }
    #expect(weakLabel == nil)
    #expect(title.observerCount == 0)
    title.value = "b"
  }

  @Test func bindingHoldsAPlainObjectWeaklyUnderAnOwnersLifetime() {
    let owner = Lifetime()
    let title = MutableProperty("a")
    weak var weakLabel: PlainLabel?
    do {
      let label = PlainLabel()
      weakLabel = label
      BindingTarget(label, \.text, lifetime: owner) <~ title
      #expect(label.text == "a")
    }
    #expect(weakLabel == nil)
    // The owner lives on; the binding notices the object is gone at the next value.
    title.value = "b"
    #expect(title.observerCount == 0)
    #expect(owner.activeCount == 0)
  }

  @Test func cancellingTheBindingTokenEndsIt() {
    let title = MutableProperty("a")
    let label = Label()
    let token = label.bindable(\.text) <~ title
    token.cancel()
    title.value = "b"
    #expect(label.text == "a")
    #expect(title.observerCount == 0)
  }

  @Test func mutablePropertyFollowsAPropertyUntilItDeallocates() {
    let source = MutableProperty(1)
    weak var weakTarget: MutableProperty<Int>?
    do {
      let target = MutableProperty(0)
      weakTarget = target
      target <~ source.map { $0 * 2 }
      #expect(target.value == 2)
      source.value = 5
      #expect(target.value == 10)
    }
    #expect(weakTarget == nil)
    #expect(source.observerCount == 0)
  }

  @Test func mutablePropertyTakesSignalEvents() {
    let (signal, input) = Signal<String?>.pipe()
    let userName = MutableProperty<String?>(nil)
    userName <~ signal
    input.send("octocat")
    #expect(userName.value == "octocat")
  }

  @Test func sourceIsReleasedWhenTheTargetIs() {
    weak var weakSource: MutableProperty<String>?
    do {
      let label = Label()
      let source = MutableProperty("x")
      weakSource = source
      label.bindable(\.text) <~ source
      #expect(label.text == "x")
    }
    #expect(weakSource == nil)
  }

  @Test func viewModelAndBoundViewDoNotRetainEachOther() async {
    final class ViewModel {
      let title = MutableProperty("t")
      let isLoading = MutableProperty(false)
    }
    final class View: LifetimeProvider {
      let lifetime = Lifetime()
      let label = Label()
      let spinner = Label()
      let viewModel: ViewModel
      init(viewModel: ViewModel) {
        self.viewModel = viewModel
        label.bindable(\.text) <~ viewModel.title
        spinner.bindable(\.isHidden) <~ viewModel.isLoading.map { !$0 }
        viewModel.isLoading.observe { [weak self] in self?.label.isHidden = $0 }
          .store(in: lifetime)
      }
    }
    await withLeakTracking { leaks in
      let viewModel = leaks.track(ViewModel())
      let view = leaks.track(View(viewModel: viewModel))
      leaks.track(view.label)
      viewModel.title.value = "Popular"
      #expect(view.label.text == "Popular")
    }
  }

  @Test func targetWithEndedLifetimeIsNotBound() {
    let title = MutableProperty("a")
    let label = Label()
    label.lifetime.end()
    label.bindable(\.text) <~ title
    #expect(title.observerCount == 0)
  }
}
