import Lockstep
import LockstepTesting
import Testing

// TCA's VoiceMemos recording and playback, cut to their effects and tested as TCA tests them,
// on LockstepTesting's ManualClock. A recording runs a timer on the clock beside a recorder that
// awaits a stream the test feeds; a playback runs a timer beside a player that sleeps on the same
// clock, so that one advance crosses several deadlines of two sleepers, two of them at the same
// instant.

struct VoiceMemos: Equatable, Sendable {
    enum Mode: Equatable, Sendable {
        case recording
        case encoding
    }

    enum Playback: Equatable, Sendable {
        case notPlaying
        case playing(progress: Double)
    }

    var recording: Mode?
    var recordedSeconds = 0
    var memoDuration: Double?
    var playback = Playback.notPlaying
    var alert: String?
}

enum VoiceMemosAction: Equatable, Sendable {
    case recordButtonTapped
    case recordingTask
    case recordingTimerUpdated
    case stopButtonTapped
    case finalRecordingTime(Double)
    case audioRecorderDidFinish(Bool?)
    case playButtonTapped
    case playbackTimerUpdated
    case audioPlayerDidFinish(Bool)
}


/// A recorder whose recording ends when the test's stream yields or finishes, as TCA's test
/// double of `audioRecorder.startRecording` does.
struct AudioRecorder: Sendable {
    let didFinish: AsyncThrowingStream<Bool, any Error>
    let finish: AsyncThrowingStream<Bool, any Error>.Continuation

    init() {
        (didFinish, finish) = AsyncThrowingStream.makeStream(of: Bool.self)
    }

    func startRecording() async throws -> Bool {
        for try await finished in didFinish {
            return finished
        }
        throw CancellationError()
    }

    func stopRecording() {
        finish.yield(true)
        finish.finish()
    }
}

struct VoiceMemosServices: Sendable {
    let clock: any Clock<Duration>
    let recorder: AudioRecorder
    /// The length of the memo the player plays.
    let playDuration: Duration
}

func voiceMemosReducer(_ state: inout VoiceMemos, _ action: VoiceMemosAction) {
    switch action {
    case .recordButtonTapped:
        state.recording = .recording
        state.recordedSeconds = 0
    case .recordingTask:
        break
    case .recordingTimerUpdated:
        state.recordedSeconds += 1
    case .stopButtonTapped:
        state.recording = .encoding
    case .finalRecordingTime(let duration):
        state.memoDuration = duration
    case .audioRecorderDidFinish(let finished):
        state.recording = nil
        if finished != true {
            state.alert = "Voice memo recording failed."
        }
    case .playButtonTapped:
        state.playback = .playing(progress: 0)
    case .playbackTimerUpdated:
        if case .playing(let progress) = state.playback, let duration = state.memoDuration {
            state.playback = .playing(progress: progress + 0.5 / duration)
        }
    case .audioPlayerDidFinish:
        state.playback = .notPlaying
    }
}

private enum VoiceMemosCancelID: Hashable, Sendable {
    case recording
    case playback
}

/// TCA's `RecordingMemo` and `VoiceMemo` effects: the recording's `onTask` (a recorder child and
/// a one-second timer), the stop button, and playback (a player child and a half-second timer),
/// each cancelled when its end arrives.
func voiceMemosMiddleware(
    state: VoiceMemos, action: VoiceMemosAction, services: VoiceMemosServices, dispatch: Dispatcher<VoiceMemosAction>
) async {
    switch action {
    case .recordingTask:
        await dispatch.withTaskCancellation(id: VoiceMemosCancelID.recording) {
            async let recording: Void = dispatch(.audioRecorderDidFinish(try? await services.recorder.startRecording()))
            while (try? await services.clock.sleep(for: .seconds(1))) != nil {
                await dispatch(.recordingTimerUpdated)
            }
            await recording
        }
    case .stopButtonTapped:
        await dispatch(.finalRecordingTime(2.5))
        services.recorder.stopRecording()
    case .audioRecorderDidFinish:
        dispatch.cancel(id: VoiceMemosCancelID.recording)
    case .playButtonTapped:
        await dispatch.withTaskCancellation(id: VoiceMemosCancelID.playback, cancelInFlight: true) {
            async let playing: Void = {
                guard (try? await services.clock.sleep(for: services.playDuration)) != nil else { return }
                await dispatch(.audioPlayerDidFinish(true))
            }()
            while (try? await services.clock.sleep(for: .milliseconds(500))) != nil {
                await dispatch(.playbackTimerUpdated)
            }
            await playing
        }
    case .audioPlayerDidFinish:
        dispatch.cancel(id: VoiceMemosCancelID.playback)
    default:
        break
    }
}

@MainActor
func makeVoiceMemosStore(clock: any Clock<Duration>, recorder: AudioRecorder = AudioRecorder()) -> TestStore<VoiceMemos, VoiceMemosAction> {
    TestStore(
        state: VoiceMemos(), reducer: voiceMemosReducer,
        services: VoiceMemosServices(clock: clock, recorder: recorder, playDuration: .milliseconds(2_500)),
        middlewares: [voiceMemosMiddleware])
}

/// TCA's `testRecordAndPlayback`: record, stop, then one advance over the playback, which
/// crosses four ticks of the timer and the end of the player's sleep.
@MainActor
func recordAndPlayback(store: TestStore<VoiceMemos, VoiceMemosAction>, advance: () async -> Void) async {
    await store.send(.recordButtonTapped) { $0.recording = .recording }
    await store.send(.recordingTask)
    await store.send(.stopButtonTapped) { $0.recording = .encoding }
    await store.receive(.finalRecordingTime(2.5)) { $0.memoDuration = 2.5 }
    await store.receive(.audioRecorderDidFinish(true)) { $0.recording = nil }
    await store.send(.playButtonTapped) { $0.playback = .playing(progress: 0) }
    await advance()
    // Four ticks, at 0.5 s to 2 s, each a fifth of the memo; at 2.5 s the player, asleep
    // since before the timer's last tick, wakes first and cancels the timer.
    var progress = 0.0
    for _ in 1...4 {
        progress += 0.5 / 2.5
        await store.receive(.playbackTimerUpdated) { [progress] in $0.playback = .playing(progress: progress) }
    }
    await store.receive(.audioPlayerDidFinish(true)) { $0.playback = .notPlaying }
}

/// TCA's `testRecordMemoFail`: the recorder's stream ends with an error, from the test, while the
/// recording timer sleeps on the clock; the recorder's failure cancels the timer.
@MainActor
func recordFailure(store: TestStore<VoiceMemos, VoiceMemosAction>, recorder: AudioRecorder) async {
    await store.send(.recordButtonTapped) { $0.recording = .recording }
    await store.send(.recordingTask)
    recorder.finish.finish(throwing: RecordingFailed())
    await store.receive(.audioRecorderDidFinish(nil)) {
        $0.alert = "Voice memo recording failed."
        $0.recording = nil
    }
}

struct RecordingFailed: Error {}

@MainActor
@Suite("TCA's VoiceMemos recording and playback on a ManualClock: every run the same")
struct VoiceMemosClockTests {
    @Test("Record and playback on a ManualClock: one advance wakes each sleeper in deadline order", arguments: 0..<20)
    func recordAndPlaybackOnManualClock(run: Int) async {
        let clock = ManualClock(name: "memos")
        let store = makeVoiceMemosStore(clock: clock)
        await recordAndPlayback(store: store) { await clock.advance(by: .seconds(3)) }
    }

    @Test("A failed recording: receive waits for the middleware that the recorder's end starts, which cancels the timer", arguments: 0..<20)
    func recordFailureOnManualClock(run: Int) async {
        let recorder = AudioRecorder()
        let store = makeVoiceMemosStore(clock: ManualClock(name: "memos"), recorder: recorder)
        await recordFailure(store: store, recorder: recorder)
    }

    @Test("A failed recording, non-exhaustive: the receive sees the same work the exhaustive one does", arguments: 0..<20)
    func recordFailureNonExhaustiveOnManualClock(run: Int) async {
        let recorder = AudioRecorder()
        let store = makeVoiceMemosStore(clock: ManualClock(name: "memos"), recorder: recorder)
        await store.withExhaustivity(.off) {
            await store.send(.recordButtonTapped)
            await store.send(.recordingTask)
            recorder.finish.finish(throwing: RecordingFailed())
            await store.receive(.audioRecorderDidFinish(nil)) {
                $0.alert = "Voice memo recording failed."
                $0.recording = nil
            }
        }
    }
}
