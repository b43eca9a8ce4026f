import CustomDump
import Lockstep
import Logging

extension ActionObserver {
    /// An observer that logs each action with swift-log and, at debug level, a compact diff of
    /// the state it changed.
    ///
    /// ```swift
    /// var logger = Logger(label: "app.store")
    /// logger.logLevel = .debug
    ///
    /// let store = Store(
    ///   state: AppState(), reducer: appReducer, services: services, middlewares: middlewares,
    ///   observers: [.logging(to: logger)]
    /// )
    /// ```
    ///
    /// Each action is one log line at `level`, with metadata naming its number (`action.seq`),
    /// the action that caused it (`action.cause`) and where it came from (`action.origin`:
    /// `app`, `middleware 0`, `effect File.swift:12`). When the logger also logs `diffLevel`, a
    /// second line holds the state's diff (from swift-custom-dump), or says the state did not
    /// change.
    ///
    /// It is an observer rather than a middleware: it sees the state on both sides of the
    /// reducer and the action's origin, which a middleware does not, and it adds no work to
    /// the side effects.
    ///
    /// swift-log's levels are values: a copy of a logger keeps the level it had when copied. So
    /// the observer reads `logger.logLevel` once, here, and if neither `level` nor `diffLevel` is
    /// logged, it is `ActionObserver.off` (from Lockstep), and the store pays nothing for it. For a log
    /// handler that changes its level in place (against swift-log's value rule), pass
    /// `readsLevelOnEachAction: true`, which reads the level before each action instead.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of the action lines.
    ///   - diffLevel: The level of the diff lines.
    ///   - readsLevelOnEachAction: Whether to read the logger's level on each action rather than
    ///     once.
    ///   - filter: Which actions to log; all of them by default.
    public static func logging(
        to logger: Logger,
        level: Logger.Level = .info,
        diffLevel: Logger.Level = .debug,
        readsLevelOnEachAction: Bool = false,
        filter: @escaping @Sendable (Action) -> Bool = { _ in true }
    ) -> ActionObserver {
        let lowest = max(level, diffLevel)
        if !readsLevelOnEachAction && logger.logLevel > lowest {
            return .off
        }
        return .nonisolated(isEnabled: { logger.logLevel <= lowest }) { reduction in
            let threshold = logger.logLevel
            guard filter(reduction.action) else { return }
            let metadata: Logger.Metadata = [
                "action.seq": "\(reduction.sequenceNumber)",
                "action.cause": reduction.cause.map { "\($0)" } ?? "none",
                "action.origin": "\(reduction.originLabel)",
            ]
            if threshold <= level {
                logger.log(level: level, "\(String(customDumping: reduction.action))", metadata: metadata)
            }
            if threshold <= diffLevel {
                let change = diff(reduction.stateBefore, reduction.stateAfter) ?? "(state unchanged)"
                logger.log(level: diffLevel, "\(change)", metadata: metadata)
            }
        }
    }
}

extension Reduction {
    /// Where the action came from, in a word or two: `app`, `middleware 0`, `effect File.swift:12`.
    package var originLabel: String {
        switch origin {
        case .external: "app"
        case .middleware: middlewareIndex.map { "middleware \($0)" } ?? "middleware"
        case .effect(let name): "effect \(name)"
        }
    }
}
