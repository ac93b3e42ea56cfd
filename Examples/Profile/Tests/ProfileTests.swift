import ExampleSupport
import Foundation
import Profile
import Testing
import TetherTesting

@MainActor
@Suite struct ProfileHeaderTests {
  nonisolated static let profiles = Array(BundledProfileService.profiles.values)

  @Test(arguments: profiles)
  func everyBindingStyleShowsTheSameDisplay(profile: Profile) {
    let styles = ProfileScreenViewModel.Style.allCases.map {
      ProfileScreenViewModel.display(of: profile, style: $0)
    }
    #expect(styles.allSatisfy { $0 != nil })
    #expect(Set(styles.map { "\(String(describing: $0))" }).count == 1)
  }

  @Test func formatsTheSeedsTitlesAndFallbacks() throws {
    let octocat = ProfileHeaderViewModel(
      input: try #require(BundledProfileService.profiles["octocat"]))
    #expect(
      octocat.followers == AttributedTitle(title: "12 \nFollowers", attributingTitle: "Followers"))
    #expect(octocat.repositories.title == "8 \nRepositories")
    #expect(octocat.following.title == "9 \nFollowing")
    #expect(octocat.followers.singleLine == "12 Followers", "one line for text layers")
    #expect(AttributedTitle(title: "a  \nb\nc", attributingTitle: "b").singleLine == "a  b c")
    #expect(octocat.nickname == "octocat")
    #expect(octocat.bio == "Not set yet")
    #expect(octocat.avatarURL.absoluteString == "https://img.example.org/avatars/octocat.png")

    let newcomer = ProfileHeaderViewModel(
      input: try #require(BundledProfileService.profiles["newcomer"]))
    #expect(newcomer.bio == "Not set yet")
    #expect(newcomer.avatarURL == ProfileHeaderText.defaultAvatarURL)
  }

  @Test func streamOutputsReplayAndFollowNewProfiles() throws {
    let first = try #require(BundledProfileService.profiles["octocat"])
    let second = try #require(BundledProfileService.profiles["li-na"])
    let viewModel = ProfileHeaderStreamViewModel(profile: first)
    // A view binding late still gets the current value (Driver semantics).
    let nicknames = viewModel.nickname.record()
    let bios = viewModel.bio.record()
    viewModel.input.value = second
    nicknames.assertValues(["octocat", "li-na"])
    bios.assertValues(["Not set yet", "写代码，拍照片。\nSwift & 摄影"])
    #expect(viewModel.display.value == ProfileHeaderViewModel(input: second).display)
  }

  @Test func decodesTheGitHubUserShape() throws {
    let json =
      #"{"login":"octocat","id":1,"avatar_url":"https://a/1.png","name":"The Octocat","bio":null,"public_repos":8,"followers":12,"following":9,"site_admin":false}"#
    let profile = try JSONDecoder().decode(Profile.self, from: Data(json.utf8))
    #expect(profile.login == "octocat")
    #expect(profile.bio == nil)
    #expect(profile.publicRepos == 8)
  }
}

@MainActor
@Suite struct ProfileScreenViewModelTests {
  @Test func screenAndStreamViewModelsAreReleased() async throws {
    let profile = try #require(BundledProfileService.profiles["octocat"])
    await withLeakTracking { leaks in
      let screen = leaks.track(ProfileScreenViewModel(service: BundledProfileService()))
      await screen.load(login: "octocat")
      for style in ProfileScreenViewModel.Style.allCases { screen.userSelected(style: style) }
      let stream = leaks.track(ProfileHeaderStreamViewModel(profile: profile))
      let header = leaks.track(ModelBoundProfileHeader())
      header.bind(model: profile)
      stream.input.value = profile
    }
  }

  @Test func loadsAProfileAndSwitchesStyles() async {
    let viewModel = ProfileScreenViewModel(service: BundledProfileService())
    let probe = ViewModelProbe(viewModel)
    await viewModel.load(login: "octocat")
    probe.expect(\.isLoading, [true, false])
    probe.expect(\.$profile) { $0.last??.login == "octocat" }
    probe.expect(\.display) { $0.last??.nickname == "octocat" }
    viewModel.userSelected(style: .modelRendersIntoContext)
    viewModel.userSelected(style: .modelRendersIntoContext)
    probe.expect(\.$style, [.modelRendersIntoContext])
    probe.expect(\.display) { $0.count == 1 && $0[0]?.nickname == "octocat" }
    probe.finish()
  }

  @Test func unknownLoginSaysSo() async {
    let viewModel = ProfileScreenViewModel(service: BundledProfileService())
    await viewModel.load(login: "nobody")
    #expect(viewModel.errorMessage.value == "No profile named \"nobody\"")
    #expect(viewModel.display.value == nil)
  }
}

/// The screen's decisions are inputs: which profile is next, what reload loads.
@MainActor
@Suite struct ProfileScreenInputTests {
  @Test func nextProfileStepsThroughTheLoginsAndWrapsAround() async {
    let screen = ProfileScreenViewModel(service: BundledProfileService())
    let logins = screen.$login.record()
    await screen.viewDidLoad()
    for _ in ProfileScreenViewModel.logins { await screen.nextProfileRequested() }
    logins.assertValues(["octocat", "tether-dev", "li-na", "newcomer", "octocat"])
    #expect(screen.display.value?.nickname == "octocat")
  }

  @Test func reloadLoadsTheLoginShownAfterAFailure() async {
    let outage = ProfileOutage()
    let screen = ProfileScreenViewModel(service: outage)
    await screen.viewDidLoad()
    await screen.nextProfileRequested()
    #expect(screen.errorMessage.value == "No Network")
    #expect(screen.login == "tether-dev")
    await outage.end()
    await screen.reloadRequested()
    #expect(screen.errorMessage.value == nil)
    #expect(screen.display.value?.nickname == "tether-dev")
    #expect(await outage.requested == ["octocat", "tether-dev", "tether-dev"])
  }
}

/// Answers the first login, then fails until `end()`.
actor ProfileOutage: ProfileService {
  private(set) var requested: [String] = []
  private var failing = false

  func end() { failing = false }

  func profile(login: String) async throws(ServiceError) -> Profile {
    requested.append(login)
    defer { failing = true }
    if failing { throw .noConnection }
    return try await BundledProfileService().profile(login: login)
  }
}
