// The code of the article "Logging and replay"
// (Sources/LockstepLogging/Documentation.docc/LoggingAndReplay.md), which quotes it, and its
// tests. `Fixtures/shifts-session.jsonl` is a session of this app, as its recorder writes it.
import Foundation
import Lockstep
import LockstepLogging
import LockstepTesting
import Logging
import Testing
import LockstepLoggingTesting

@Test @MainActor
func recordedSessionReplays() async throws {
    let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL, expectedAppVersion: "1.0")
    let store = TestStore(state: log.initialState, reducer: appReducer)
    await store.replay(log)
}

/// The recording the replay test reads.
let sessionURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/shifts-session.jsonl")

struct AppState: Codable, Equatable, Sendable {
    var isLoading = false
    var shifts: [String] = []
}

enum AppAction: Codable, Equatable, Sendable {
    case loadShifts
    case shiftsLoaded([String])
}

let appReducer: InPlaceReducer<AppState, AppAction> = { state, action in
    switch action {
    case .loadShifts:
        state.isLoading = true
    case .shiftsLoaded(let shifts):
        state.isLoading = false
        state.shifts = shifts
    }
}

struct ShiftServices: Sendable {
    var loadShifts: @Sendable () async -> [String]
}

func todayMiddleware(
    state: AppState,
    action: AppAction,
    services: ShiftServices,
    dispatch: Dispatcher<AppAction>
) async {
    guard action == .loadShifts else { return }
    await dispatch(.shiftsLoaded(await services.loadShifts()))
}

/// The article's store, logging to swift-log and recording to `sessionURL`.
@MainActor
func makeLoggedStore(
    services: ShiftServices,
    sessionURL: URL
) throws -> (Store<AppState, AppAction>, ActionRecorder<AppState, AppAction>) {
    var logger = Logger(label: "shifts.store")
    logger.logLevel = .info

    let recorder = ActionRecorder<AppState, AppAction>(
        sink: try FileActionLogSink(url: sessionURL),
        appVersion: "1.0"
    )

    let store = Store(
        state: AppState(),
        reducer: appReducer,
        services: services,
        middlewares: [todayMiddleware],
        observers: [.logging(to: logger), recorder.observer]
    )
    return (store, recorder)
}

@MainActor
@Suite("The logging-and-replay article")
struct LoggingAndReplayArticleTests {
    @Test("The store records a session that replays as the recording in Fixtures")
    func recordsAReplayableSession() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lockstep-logging-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.jsonl")

        let (store, recorder) = try makeLoggedStore(
            services: ShiftServices(loadShifts: { ["Morning", "Evening"] }), sessionURL: url)
        await store.dispatch(.loadShifts)
        try await recorder.finish()

        let recorded = try ActionLog<AppState, AppAction>(contentsOf: url, expectedAppVersion: "1.0")
        let committed = try ActionLog<AppState, AppAction>(contentsOf: sessionURL, expectedAppVersion: "1.0")
        #expect(recorded.entries.map(\.action) == committed.entries.map(\.action))
        #expect(recorded.entries.map(\.state) == committed.entries.map(\.state))
        #expect(store.state.shifts == ["Morning", "Evening"])
    }
}
