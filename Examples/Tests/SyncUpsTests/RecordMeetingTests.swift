import Dependencies
import Foundation
import IdentifiedCollections
import LockstepCasePathsTesting
import LockstepDependencies
import LockstepTesting
import SyncUps
import Testing

/// The meeting in progress, pushed on the detail: a timer on a manual clock, transcripts from the
/// test's recognizer, and the alert of ending early.
@MainActor
@Suite("SyncUps: the meeting")
struct RecordMeetingTests {
    let meeting = StackState<Path>.meeting(of:)

    /// The meeting the reducer keeps, with the test's id and date.
    func saved(_ transcript: String) -> Meeting {
        Meeting(id: UUID(0), date: testDate, transcript: transcript)
    }

    /// The meeting saved in the meeting's sync-up: the detail's and the list's too, as it is
    /// shared, so it is asserted once.
    func insert(_ meeting: Meeting, into state: inout AppState) {
        state.path[id: 1]?.modify(\.record) { $0.syncUp.meetings.insert(meeting, at: 0) }
    }

    @Test("The timer gives each attendee their share; at the end the meeting is saved and the screen closes")
    func timerToTheEnd() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await harness.clock.advance(by: .seconds(6))
        for second in 1...6 {
            await store.receive(\.path[id: 1].record.timerTicked) {
                $0.path[id: 1]?.modify(\.record) {
                    $0.secondsElapsed = second
                    $0.speakerIndex = min(second / 2, 2)
                }
                if second == 6 { insert(saved(""), into: &$0) }
            }
        }
        await store.receive(\.path.popFrom, 1) {
            $0.path.pop(from: 1)
        }
        await store.finish()
        #expect(harness.saved?[id: SyncUp.design.id]?.meetings.first == saved(""))
    }

    @Test("The meeting on its own: at the end of the time it saves the meeting and dismisses itself")
    func timerToTheEndOnItsOwn() async {
        let harness = Harness()
        let store = withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(testDate)
        } store: {
            TestStore(
                state: RecordMeetingState(syncUp: Shared(value: .design)), reducer: recordMeetingReducer,
                services: harness.services, middlewares: [recordMeetingMiddleware])
        }

        await store.send(.onTask)
        await harness.clock.advance(by: .seconds(6))
        for second in 1...6 {
            await store.receive(\.timerTicked) {
                $0.secondsElapsed = second
                $0.speakerIndex = min(second / 2, 2)
                if second == 6 { $0.syncUp.meetings.insert(saved(""), at: 0) }
            }
        }
        #expect(store.isDismissed)
        await store.finish()
    }

    @Test("The meeting on its own: discarding dismisses it, with nothing saved")
    func endEarlyDiscardOnItsOwn() async {
        let harness = Harness()
        let store = TestStore(
            state: RecordMeetingState(syncUp: Shared(value: .design)), reducer: recordMeetingReducer,
            services: harness.services, middlewares: [recordMeetingMiddleware])

        await store.send(.onTask)
        await store.send(.endMeetingTapped) {
            $0.alert = .endMeeting(isDiscardable: true)
        }
        await store.send(.alert(.presented(.confirmDiscard))) {
            $0.alert = nil
        }
        #expect(store.isDismissed)
        await store.finish()
    }

    @Test("The recognizer's transcript is kept with the meeting")
    func transcript() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await harness.speech.send(.transcript("I completed the project"))
        await store.receive(\.path[id: 1].record.speechResult, "I completed the project") {
            $0.path[id: 1]?.modify(\.record) { $0.transcript = "I completed the project" }
        }
        await store.send(.path(.element(id: 1, action: .record(.endMeetingTapped)))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .endMeeting(isDiscardable: true) }
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.presented(.confirmSave)))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
            insert(saved("I completed the project"), into: &$0)
        }
        await store.receive(\.path.popFrom, 1) {
            $0.path.pop(from: 1)
        }
        await store.finish()
    }

    @Test("Ending early and saving: the clock stops while the alert asks, then the meeting is saved")
    func endEarlySave() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await store.send(.path(.element(id: 1, action: .record(.endMeetingTapped)))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .endMeeting(isDiscardable: true) }
        }
        await harness.clock.advance(by: .seconds(3))
        for _ in 1...3 {
            await store.receive(\.path[id: 1].record.timerTicked)
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.presented(.confirmSave)))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
            insert(saved(""), into: &$0)
        }
        await store.receive(\.path.popFrom, 1) {
            $0.path.pop(from: 1)
        }
        await store.finish()
    }

    @Test("Ending early and discarding: the screen closes and the sync-up is as it was")
    func endEarlyDiscard() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await store.send(.path(.element(id: 1, action: .record(.endMeetingTapped)))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .endMeeting(isDiscardable: true) }
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.presented(.confirmDiscard)))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
        }
        await store.receive(\.path.popFrom, 1) {
            $0.path.pop(from: 1)
        }
        await store.finish()
        #expect(store.state.list.syncUps == [.design])
        #expect(harness.storage.saveCount == 0)
    }

    @Test("Resuming closes the alert and the clock goes on")
    func endEarlyResume() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        let task = await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await store.send(.path(.element(id: 1, action: .record(.endMeetingTapped)))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .endMeeting(isDiscardable: true) }
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.dismiss))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
        }
        await harness.clock.advance(by: .seconds(1))
        await store.receive(\.path[id: 1].record.timerTicked) {
            $0.path[id: 1]?.modify(\.record) { $0.secondsElapsed = 1 }
        }
        await task.cancel()
    }

    @Test("Next moves to the next speaker; on the last one it asks to end, with no discarding")
    func nextSpeaker() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.nextTapped)))) {
            $0.path[id: 1]?.modify(\.record) {
                $0.speakerIndex = 1
                $0.secondsElapsed = 2
            }
        }
        await store.send(.path(.element(id: 1, action: .record(.nextTapped)))) {
            $0.path[id: 1]?.modify(\.record) {
                $0.speakerIndex = 2
                $0.secondsElapsed = 4
            }
        }
        await store.send(.path(.element(id: 1, action: .record(.nextTapped)))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .endMeeting(isDiscardable: false) }
        }
    }

    @Test("A failed recognizer marks the transcript and asks; discarding closes the meeting")
    func speechFailureDiscard() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await harness.speech.send(.transcript("I completed the project"))
        await store.receive(\.path[id: 1].record.speechResult) {
            $0.path[id: 1]?.modify(\.record) { $0.transcript = "I completed the project" }
        }
        await harness.speech.send(.failure)
        await store.receive(\.path[id: 1].record.speechFailed) {
            $0.path[id: 1]?.modify(\.record) {
                $0.transcript = "I completed the project ❌"
                $0.alert = .speechRecognizerFailed
            }
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.presented(.confirmDiscard)))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
        }
        await store.receive(\.path.popFrom, 1) {
            $0.path.pop(from: 1)
        }
        await store.finish()
    }

    @Test("A failed recognizer, and Continue: the meeting goes on, unrecorded")
    func speechFailureContinue() async {
        let harness = Harness()
        let store = await harness.makeStore(path: meeting)

        let task = await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await harness.speech.send(.failure)
        await store.receive(\.path[id: 1].record.speechFailed) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = .speechRecognizerFailed }
        }
        await store.send(.path(.element(id: 1, action: .record(.alert(.dismiss))))) {
            $0.path[id: 1]?.modify(\.record) { $0.alert = nil }
        }
        await harness.clock.advance(by: .seconds(1))
        await store.receive(\.path[id: 1].record.timerTicked) {
            $0.path[id: 1]?.modify(\.record) { $0.secondsElapsed = 1 }
        }
        await task.cancel()
    }
}
