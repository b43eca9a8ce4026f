/// Runs the effects a single-entry-point model triggers, feeds their completions back, and lets
/// a test wait until every one of them is done.
///
/// A single-entry-point view model would start each effect in a `Task` of its own and feeds the completion back
/// into `handle(_:)`. `EffectRunner` does that bookkeeping once: it runs each triggered effect
/// through the injectable ``handler``, hands the resulting event to the feedback closure, keeps
/// the failures, and knows how many effects are in flight.
///
/// ```swift
/// @MainActor @Observable
/// final class ProfileViewModel {
///     var loading = false
///     var email = ""
///     @ObservationIgnored let effects: EffectRunner<ProfileEffect, When>
///
///     init(effectHandler: @escaping EffectHandler<ProfileEffect, When>) {
///         effects = EffectRunner(handler: effectHandler)
///     }
///
///     func handle(_ when: When) throws {
///         switch when {
///         case .systemShowsUserProfileView:
///             loading = true
///             effects.trigger(.performGetProfileNetworkRequest) { [weak self] completion in
///                 try self?.handle(completion)
///             }
///         // ...
///         }
///     }
/// }
/// ```
///
/// A test drives the model through `handle(_:)` and, to see the completions applied, awaits
/// ``waitUntilIdle()``, which returns when no triggered effect is in flight, including the effects
/// that completions triggered in turn.
///
/// An error thrown by the handler, or by the feedback closure (such as ``InvalidStateError``), is
/// recorded in ``failures`` and does not stop the runner. Releasing the runner cancels the
/// effects still in flight.
@MainActor
public final class EffectRunner<Effect: Sendable, When: Sendable> {
    /// The function that performs each effect. Replace it to run the model against fakes.
    public var handler: EffectHandler<Effect, When>

    /// The effects that failed, oldest first: each with the effect that was triggered and the
    /// error the handler or the feedback closure threw.
    ///
    /// ```swift
    /// await vm.effects.waitUntilIdle()
    /// #expect(vm.effects.failures.map(\.effect) == [.performGetProfileNetworkRequest])
    /// #expect(vm.effects.failures.first?.error is URLError)
    /// ```
    public private(set) var failures: [EffectFailure<Effect>] = []

    /// The number of triggered effects whose completion has not been handled yet.
    public var inFlightCount: Int {
        idle.withLock(\.inFlightCount)
    }

    /// The in-flight count and the tasks waiting for it to reach zero, under one lock: a wait
    /// leaves the main actor, so the count it checks must be the one an effect's end changes.
    private struct Idle {
        var inFlightCount = 0
        var waiters = WaiterQueue<Void, Void>()

        static func isIdle(_ idle: inout Idle) -> Void? {
            idle.inFlightCount == 0 ? () : nil
        }
    }

    private let idle = Lock(Idle())
    private let ownedTasks = OwnedTasks()

    /// Creates a runner that performs effects with `handler`.
    public init(handler: @escaping EffectHandler<Effect, When>) {
        self.handler = handler
    }

    deinit {
        ownedTasks.cancelAll()
    }

    /// Performs `effect` in a task of its own, then passes the event it returns to `feedback`.
    ///
    /// - Parameters:
    ///   - effect: The effect to perform.
    ///   - feedback: Handles the completion event, usually the model's own `handle(_:)`. Capture
    ///     the model weakly, so that a running effect does not keep it alive.
    /// - Returns: The task that performs the effect and handles its completion.
    @discardableResult
    public func trigger(
        _ effect: Effect,
        then feedback: @escaping @MainActor (When) throws -> Void
    ) -> Task<Void, Never> {
        idle.withLock { $0.inFlightCount += 1 }
        let handler = self.handler
        return ownedTasks.start { @MainActor [weak self] in
            do {
                let completion = try await handler(effect)
                try Task.checkCancellation()
                try feedback(completion)
            } catch is CancellationError {
                // Cancelled with the runner: not a failure.
            } catch {
                self?.failures.append(EffectFailure(effect: effect, error: error))
            }
            self?.effectFinished()
        }
    }

    /// Returns when no triggered effect is in flight: each has completed, and its completion
    /// (and whatever effects that completion triggered) has been handled, or it failed.
    public func waitUntilIdle() async {
        // The effects run in tasks a test's work monitor does not track, so the wait cannot
        // tell a stall from work in flight: it waits on.
        _ = await awaitWaiter(
            on: idle, \.waiters, for: (), activity: nil, detectsStall: false, immediate: Idle.isIdle)
    }

    private func effectFinished() {
        idle.withLockResuming { idle in
            idle.inFlightCount -= 1
            return idle.inFlightCount == 0 ? idle.waiters.satisfy { _ in () } : []
        }
    }
}
