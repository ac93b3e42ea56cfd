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
