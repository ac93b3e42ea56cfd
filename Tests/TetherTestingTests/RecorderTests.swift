import Testing
import TetherTesting

@MainActor
@Suite struct RecorderTests {
  @Test func recordsCurrentValueThenChanges() {
    let property = MutableProperty(0)
    let recorder = property.record()
    property.value = 1
    recorder.assertValues([0, 1])
    recorder.assertLastValue(1)
  }

  @Test func recordsSignalEventsOnly() {
    let (signal, input) = Signal<String>.pipe()
    input.send("lost")
    let recorder = signal.record()
    input.send("kept")
    recorder.assertValues(["kept"])
  }

  @Test func stopKeepsWhatWasRecorded() {
    let property = MutableProperty(0)
    let recorder = property.record()
    recorder.stop()
    property.value = 1
    #expect(recorder.values == [0])
    recorder.clear()
    #expect(recorder.values.isEmpty)
    #expect(recorder.lastValue == nil)
  }

  @Test func assertValuesFailsOnAMismatch() {
    let property = MutableProperty(0)
    let recorder = property.record()
    property.value = 1
    withKnownIssue {
      recorder.assertValues([0, 2])
    } matching: { issue in
      issue.sourceLocation?.fileName == "RecorderTests.swift"
    }
  }

  @Test func assertLastValueFailsOnAMismatch() {
    let recorder = MutableProperty("a").record()
    withKnownIssue {
      recorder.assertLastValue("b")
    }
  }
}

@MainActor
@Suite struct ExpectEventuallyTests {
  @Test func returnsOnceTheConditionHolds() async {
    let property = MutableProperty(0)
    Task { property.value = 1 }
    await expectEventually { property.value == 1 }
  }

  @Test func failsWhenTheConditionNeverHolds() async {
    await withKnownIssue {
      await expectEventually(timeout: .milliseconds(20)) { false }
    } matching: { issue in
      String(describing: issue).contains("still false")
    }
  }
}
