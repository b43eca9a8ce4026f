import Dependencies
import Foundation
import Lockstep
import LockstepCasePaths

/// The meeting in progress: a timer that gives each attendee their share, the transcript the
/// speech recognizer hears, and the alert of ending early.
public struct RecordMeetingState: Equatable, Sendable {
    /// The alert of ending the meeting early, or of a failed recognizer.
    public var alert: AlertState<RecordMeetingAlertAction>?
    /// Seconds since the meeting started.
    public var secondsElapsed = 0
    /// The attendee speaking now.
    public var speakerIndex = 0
    /// The sync-up that meets: the list's row, shared.
    @Shared public var syncUp: SyncUp
    /// What the recognizer heard so far.
    public var transcript = ""

    /// The meeting of `syncUp`, at its start.
    public init(
        alert: AlertState<RecordMeetingAlertAction>? = nil, secondsElapsed: Int = 0, speakerIndex: Int = 0,
        syncUp: Shared<SyncUp>, transcript: String = ""
    ) {
        self.alert = alert
        self.secondsElapsed = secondsElapsed
        self.speakerIndex = speakerIndex
        self._syncUp = syncUp
        self.transcript = transcript
    }

    /// Seconds each attendee speaks.
    public var secondsPerAttendee: Int {
        Int(syncUp.durationPerAttendee.components.seconds)
    }

    /// Seconds left in the meeting.
    public var durationRemaining: Duration {
        syncUp.duration - .seconds(secondsElapsed)
    }

    /// Whether the last attendee's time is up: the meeting ends on its own.
    public var isTimeUp: Bool {
        secondsElapsed >= secondsPerAttendee * syncUp.attendees.count
    }
}

/// The buttons of the meeting's alerts.
@CasePathable
public enum RecordMeetingAlertAction: Equatable, Sendable {
    /// End the meeting and keep nothing.
    case confirmDiscard
    /// End the meeting and save it.
    case confirmSave
}

/// What the meeting's controls, timer and recognizer send.
@CasePathable
public enum RecordMeetingAction: Equatable, Sendable {
    /// A button of the alert, or its dismissal (Resume, Continue meeting).
    case alert(PresentationAction<RecordMeetingAlertAction>)
    /// The user tapped End meeting.
    case endMeetingTapped
    /// The user tapped Next speaker.
    case nextTapped
    /// The screen appeared: the timer and the recognizer start, until the screen goes.
    case onTask
    /// A second passed.
    case timerTicked
    /// The recognizer's transcript so far.
    case speechResult(String)
    /// The recognizer failed.
    case speechFailed
}

extension AlertState where Action == RecordMeetingAlertAction {
    /// Ending before the time is up: save, discard (when `isDiscardable`) or resume.
    public static func endMeeting(isDiscardable: Bool) -> AlertState {
        AlertState {
            TextState("End meeting?")
        } actions: {
            ButtonState(action: .confirmSave) { TextState("Save and end") }
            if isDiscardable {
                ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard") }
            }
            ButtonState(role: .cancel) { TextState("Resume") }
        } message: {
            TextState("You are ending the meeting early. What would you like to do?")
        }
    }

    /// The recognizer stopped: go on without it, or discard the meeting.
    public static let speechRecognizerFailed = AlertState {
        TextState("Speech recognition failure")
    } actions: {
        ButtonState(role: .cancel) { TextState("Continue meeting") }
        ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard meeting") }
    } message: {
        TextState(
            "The speech recognizer has failed for some reason and so your meeting will no longer be recorded. What do you want to do?"
        )
    }
}

let recordMeetingCoreReducer: InPlaceReducer<RecordMeetingState, RecordMeetingAction> = { state, action in
    @Dependency(\.uuid) var uuid
    @Dependency(\.date.now) var now
    /// Keeps the meeting: the middleware closes the screen after this action.
    func saveMeeting() {
        state.syncUp.meetings.insert(Meeting(id: uuid(), date: now, transcript: state.transcript), at: 0)
    }
    switch action {
    case .endMeetingTapped:
        state.alert = .endMeeting(isDiscardable: true)
    case .nextTapped:
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
            state.alert = .endMeeting(isDiscardable: false)
            return
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.speakerIndex * state.secondsPerAttendee
    case .timerTicked:
        // The clock stops while an alert asks what to do.
        guard state.alert == nil, !state.isTimeUp else { return }
        state.secondsElapsed += 1
        if state.isTimeUp {
            saveMeeting()
        } else if state.secondsElapsed.isMultiple(of: state.secondsPerAttendee),
            state.speakerIndex < state.syncUp.attendees.count - 1
        {
            state.speakerIndex += 1
        }
    case .speechResult(let transcript):
        state.transcript = transcript
    case .speechFailed:
        if !state.transcript.isEmpty {
            state.transcript += " ❌"
        }
        state.alert = .speechRecognizerFailed
    case .alert(.presented(.confirmSave)):
        saveMeeting()
    case .alert, .onTask:
        break
    }
}

/// The meeting's reducer: its own, then the closing of the alert.
public let recordMeetingReducer: InPlaceReducer<RecordMeetingState, RecordMeetingAction> = combineReducers(
    parent: recordMeetingCoreReducer,
    children: ifLetReducer(state: \.alert, action: \.alert)
)

/// The timer and the recognizer, while the screen is there; saving the meeting, and closing the
/// screen, when the time is up or the user ends it.
public let recordMeetingMiddleware: Middleware<RecordMeetingState, RecordMeetingAction, SyncUpsServices> = {
    state, action, services, dispatch in
    switch action {
    case .onTask:
        await withDiscardingTaskGroup { group in
            group.addTask {
                while (try? await services.clock.sleep(for: .seconds(1))) != nil {
                    await dispatch(.timerTicked)
                }
            }
            group.addTask {
                await record(with: services.speech, dispatch: dispatch)
            }
        }
    case .timerTicked where state.isTimeUp, .alert(.presented(.confirmSave)):
        await dispatch.dismiss()
    case .alert(.presented(.confirmDiscard)):
        await dispatch.dismiss()
    default:
        break
    }
}

/// Sends the recognizer's transcripts, after asking for the permission if it was never given.
private func record(with speech: SpeechClient, dispatch: Dispatcher<RecordMeetingAction>) async {
    var status = speech.authorizationStatus()
    if status == .notDetermined {
        status = await speech.requestAuthorization()
    }
    guard status == .authorized else { return }
    do {
        for try await transcript in speech.transcripts() {
            await dispatch(.speechResult(transcript))
        }
    } catch is CancellationError {
    } catch {
        await dispatch(.speechFailed)
    }
}

/// The meeting as one feature: its reducer and its timer, speech and saving.
public let recordMeetingFeature = Feature<RecordMeetingState, RecordMeetingAction, SyncUpsServices>(
    reducer: recordMeetingReducer
) {
    recordMeetingMiddleware
}
