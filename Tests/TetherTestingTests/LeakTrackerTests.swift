import Testing
import TetherTesting

private final class Node {
  var next: Node?
  var onChange: (() -> Void)?
}

@MainActor
@Suite struct LeakTrackerTests {
  @Test func passesWhenTrackedObjectsAreReleased() async {
    await withLeakTracking { leaks in
      let node = leaks.track(Node())
      node.next = leaks.track(Node())
    }
  }

  @Test func failsNamingTheTypeOfALeakedObject() async {
    await withKnownIssue {
      await withLeakTracking { leaks in
        let node = leaks.track(Node())
        node.onChange = { _ = node }  // a closure cycle
      }
    } matching: { issue in
      String(describing: issue).contains("Node was not deallocated")
    }
  }

  @Test func asyncFormWaitsForInFlightWork() async {
    await withLeakTracking { leaks in
      let node = leaks.track(Node())
      Task {
        await Task.yield()
        _ = node
      }
    }
  }

  @Test func asyncFormStillFailsForARealLeak() async {
    await withKnownIssue {
      await withLeakTracking { leaks in
        let first = leaks.track(Node())
        let second = leaks.track(Node())
        first.next = second
        second.next = first
      }
    } matching: { issue in
      String(describing: issue).contains("Node was not deallocated")
    }
  }

  @Test func detectsAViewModelKeptAliveByItsOwnObserver() async {
    final class ViewModel {
      let name = MutableProperty("")
      var lastName = ""
      var token: ObservationToken?
      init() {
        token = name.observe { self.lastName = $0 }  // strong self: a cycle
      }
    }
    await withKnownIssue {
      await withLeakTracking { leaks in
        leaks.track(ViewModel())
      }
    } matching: { issue in
      String(describing: issue).contains("ViewModel was not deallocated")
    }
  }
}
