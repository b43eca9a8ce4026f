import Lockstep
import LockstepLogging
import Logging
import Testing

@MainActor
@Suite("Logging observer")
struct LoggingObserverTests {
    @Test("Each action is logged with its number, cause and origin; the diff at debug level")
    func actionsAndDiffsAreLogged() async {
        let captured = CapturedLog()
        let store = Store(
            state: Tally(), reducer: tallyReducer, middlewares: [tallyMiddleware],
            observers: [.logging(to: captured.logger(level: .debug))])

        await store.dispatch(.request(3))

        let actions = captured.all.filter { $0.level == .info }
        #expect(actions.map(\.message) == ["TallyAction.request(3)", "TallyAction.add(3)"])
        #expect(actions.map { $0.metadata["action.seq"] } == ["1", "2"])
        #expect(actions.map { $0.metadata["action.cause"] } == ["none", "1"])
        #expect(actions.map { $0.metadata["action.origin"] } == ["app", "middleware 0"])
        let diffs = captured.all.filter { $0.level == .debug }.map(\.message)
        #expect(diffs.count == 2)
        #expect(diffs[0] == """
              Tally(
                total: 0,
            -   requests: 0
            +   requests: 1
              )
            """)
        #expect(diffs[1].contains("-   total: 0,") && diffs[1].contains("+   total: 3,"))
    }

    @Test("At info level only the actions are logged, and an unchanged state says so at debug")
    func levelsAreHonoured() async {
        let info = CapturedLog()
        let debug = CapturedLog()
        let store = Store(
            state: Tally(), reducer: tallyReducer,
            observers: [.logging(to: info.logger(level: .info)), .logging(to: debug.logger(level: .debug))])

        await store.dispatch(.reset)

        #expect(info.all.map(\.level) == [.info])
        #expect(debug.all.map(\.message).last == "(state unchanged)")
    }

    @Test("The filter picks the actions logged")
    func filterPicksActions() async {
        let captured = CapturedLog()
        let store = Store(
            state: Tally(), reducer: tallyReducer,
            observers: [.logging(to: captured.logger(level: .info)) { action in action != .reset }])

        await store.dispatch(.add(1))
        await store.dispatch(.reset)

        #expect(captured.all.map(\.message) == ["TallyAction.add(1)"])
    }

    @Test("A logger whose level is above the observer's does nothing, not even the filter")
    func disabledLoggerDoesNoWork() async {
        let captured = CapturedLog()
        let filterCalls = Lock(0)
        let store = Store(
            state: Tally(), reducer: tallyReducer,
            observers: [
                .logging(to: captured.logger(level: .warning)) { _ in
                    filterCalls.withLock { $0 += 1 }
                    return true
                },
            ])

        await store.dispatch(.add(1))

        #expect(captured.all.isEmpty)
        #expect(filterCalls.withLock { $0 } == 0)
        #expect(store.state.total == 1)
    }

    @Test("An observer can read the level on each action, for a handler that changes it in place")
    func levelReadOnEachAction() async {
        let captured = CapturedLog()
        let level = Lock(Logger.Level.warning)
        let logger = Logger(label: "test") { _ in SharedLevelHandler(log: captured, level: level) }
        let store = Store(
            state: Tally(), reducer: tallyReducer,
            observers: [.logging(to: logger, readsLevelOnEachAction: true)])

        await store.dispatch(.add(1))
        level.withLock { $0 = .info }
        await store.dispatch(.add(2))

        #expect(captured.all.map(\.message) == ["TallyAction.add(2)"])
    }

    @Test("An effect's output is logged with the effect's name")
    func effectOriginIsNamed() async {
        let captured = CapturedLog()
        let doubler = Effect<TallyAction> { actions in
            actions.ofCase { action -> TallyAction? in
                if case .request(let n) = action { .add(n * 2) } else { nil }
            }
        }
        let store = Store(
            state: Tally(), reducer: tallyReducer, effects: [doubler],
            observers: [.logging(to: captured.logger(level: .info))])

        await store.dispatch(.request(2))

        #expect(captured.all.last?.metadata["action.origin"] == "effect \(doubler.name)")
        #expect(captured.all.last?.metadata["action.cause"] == "1")
    }
}

/// A handler whose level lives in shared state, so changing it reaches every copy.
struct SharedLevelHandler: LogHandler {
    let log: CapturedLog
    let level: Lock<Logger.Level>
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        CapturedLog.Handler(log: log).log(event: event)
    }
}
