import Foundation
import IssueReporting
import Lockstep

extension OperationStore {
    // MARK: Running

    func run(
        arguments: State.Arguments, deduplicate: Bool, handler: Listener? = nil
    ) async throws -> State.Value {
        let (task, waiter) = core.withLock { core in
            let task: OperationTask<State.Value>
            if deduplicate, let run = core.oldestRun {
                task = run.task
                if let handler { core.runs[run.task.id]?.handlers.append(handler) }
            } else {
                task = startRun(&core, arguments: arguments, reason: .requested, handler: handler)
            }
            return (task, task.makeWaiter())
        }
        deliver()
        return try await task.wait(for: waiter)
    }

    /// Runs an infinite query's page fetch in `direction`, joining a run in flight in the same
    /// direction; returns `nil` at once when there is no page that way.
    func runPaged(
        _ direction: State.Arguments, handler: Listener? = nil
    ) async throws -> State.Value? {
        let started = core.withLock { core -> (OperationTask<State.Value>, UInt64)? in
            guard let plan = query?.plan?(core.state, direction) else { return nil }
            let task: OperationTask<State.Value>
            if let run = core.runs.values.filter({ $0.key == plan.key }).min(by: { $0.task.id < $1.task.id }) {
                task = run.task
                if let handler { core.runs[run.task.id]?.handlers.append(handler) }
            } else {
                task = startRun(&core, arguments: plan.arguments, reason: .requested, handler: handler, plan: plan)
            }
            return (task, task.makeWaiter())
        }
        deliver()
        guard let (task, waiter) = started else { return nil }
        return try await task.wait(for: waiter)
    }

    @discardableResult
    func startRun(
        _ core: inout Core, arguments: State.Arguments, reason: OperationContext.RunReason,
        handler: Listener? = nil, plan: RunPlan? = nil
    ) -> OperationTask<State.Value> {
        var arguments = arguments
        var context = core.context
        context.runReason = reason
        let plan = plan ?? query?.plan?(core.state, arguments)
        if let plan {
            arguments = plan.arguments
            context.paging = plan.paging
        }
        let id = core.nextRun
        core.nextRun += 1
        core.unclaimedRun = nil
        core.hasRun = true
        core.latestArguments = arguments
        // Started by tracked work (a TestStore's send or effect, a piece of `withTrackedWork`),
        // the run goes on as part of that work, which may wait for it in ways no monitor sees (a
        // stream of the store's states): the run inherits its tracked task. Started by the test
        // itself under `withTrackedWork`, the run is tracked work of its own, so the toolkit's
        // waits see it and name what it is parked on. Started by a feature's bridge as it
        // subscribes, the run is a child of the bridge's tracked task: the bridge parks on its
        // feed of states while the run goes on, and sleeps, on its own.
        let label = "the request of \(path)"
        let inherited = WorkTracking.unit
        let ownTrackedTask: (any WorkUnit)? =
            if let inherited {
                BridgeSubscription.isSubscribing ? inherited.makeChild() : nil
            } else {
                WorkTracking.scope.map { $0.makeUnit(label: label) }
            }
        let isTracked = inherited != nil || ownTrackedTask != nil
        let task = OperationTask<State.Value>(id: id, runReason: reason, label: label, trackedTask: ownTrackedTask)
        let handlers = handler.map { [$0] } ?? []
        core.runs[id] = Run(
            task: task, context: context, invalidations: core.invalidations, arguments: arguments,
            handlers: handlers, key: plan?.key)
        core.state.apply(.started(run: id, arguments: arguments, date: settings.now()))
        core.events.append(.state(core.state, context, .everyone(runHandlers: handlers)))
        core.events.append(.runStarted(arguments, context, runHandlers: handlers))
        settings.tracker.started(tracked: isTracked)
        let continuation = OperationContinuation<State.Value, State.Failure> { [weak self] result in
            self?.yielded(result, run: id)
        }
        let retries = RetryHooks(
            scheduled: { [weak self] error, next, delay in
                self?.retryScheduled(run: id, error: error, next: next, delay: delay)
            },
            started: { [weak self] in self?.retryStarted(run: id) })
        // Tracked, it runs on the test's executor with the rest of the test's work.
        let work = Task(executorPreference: (ownTrackedTask ?? inherited)?.preferredExecutor) { [weak self, body, settings] in
            await WorkTracking.$unit.withValue(ownTrackedTask ?? inherited) {
                let result = await Self.execute(
                    body, arguments: arguments, context: context, settings: settings,
                    continuation: continuation, retries: retries)
                let delivered = self?.finish(run: id, with: result) ?? result
                // Its waiters run again before the run counts as finished, so a test never sees
                // a moment with nothing running while they go on.
                task.finish(with: delivered)
                settings.tracker.ended(tracked: isTracked)
            }
            ownTrackedTask?.finish()
        }
        task.attach(work)
        return task
    }

    /// What `execute` tells the store about a run's retries.
    struct RetryHooks: Sendable {
        /// An attempt threw the error; the next attempt's context and the wait before it.
        var scheduled: @Sendable (_ error: any Error, _ next: OperationContext, _ delay: Duration) -> Void
        /// The wait ended and the next attempt starts.
        var started: @Sendable () -> Void
    }

    static func execute(
        _ body: Body,
        arguments: State.Arguments,
        context: OperationContext,
        settings: StoreSettings,
        continuation: OperationContinuation<State.Value, State.Failure>,
        retries: RetryHooks
    ) async -> Result<State.Value, any Error> {
        var context = context
        let clock = settings.clock
        let delayer = context.delayer ?? OperationDelayer { try await clock.sleep($0) }
        // The wait before the next attempt, decided when the previous one failed.
        var wait: Duration?
        while true {
            do {
                if let pending = wait {
                    try await delayer.delay(for: pending)
                    wait = nil
                    retries.started()
                }
                return .success(try await body(arguments, context, continuation))
            } catch {
                if Task.isCancelled || error is CancellationError {
                    return .failure(CancellationError())
                }
                if context.retryIndex >= context.retryLimit {
                    return .failure(error)
                }
                context.retryIndex += 1
                let delay = context.backoff(context.retryIndex)
                wait = delay
                retries.scheduled(error, context, delay)
            }
        }
    }

    /// Records that an attempt of run `id` failed with `error` and that the run waits `delay`
    /// before the attempt `context` describes.
    func retryScheduled(run id: Int, error: any Error, next context: OperationContext, delay: Duration) {
        // Another type is reported when the run ends, if it ends with it.
        guard let error = error as? State.Failure else { return }
        let accepted = core.withLock { core in
            guard let run = core.runs[id] else { return false }
            core.runs[id]?.isWaitingToRetry = true
            let retry = OperationRetry(
                failedAttempts: context.retryIndex, retryLimit: context.retryLimit, error: error,
                delay: delay, failureDate: settings.now())
            core.state.apply(.retryScheduled(run: id, retry: retry))
            core.events.append(.retryScheduled(run.arguments, retry, context, runHandlers: run.handlers))
            core.events.append(.state(core.state, context, .everyone(runHandlers: run.handlers)))
            return true
        }
        if accepted { deliver() }
    }

    /// Records that run `id`'s wait ended and its next attempt started.
    func retryStarted(run id: Int) {
        let accepted = core.withLock { core in
            guard let run = core.runs[id], run.isWaitingToRetry else { return false }
            core.runs[id]?.isWaitingToRetry = false
            core.state.apply(.retryStarted(run: id, date: settings.now()))
            core.events.append(.state(core.state, run.context, .everyone(runHandlers: run.handlers)))
            return true
        }
        if accepted { deliver() }
    }

    func yielded(_ result: Result<State.Value, State.Failure>, run id: Int) {
        let accepted = core.withLock { core in
            guard let run = core.runs[id] else { return false }
            core.state.apply(.yielded(run: id, result: result, date: settings.now()))
            if case .success = result { core.valueSetAt = settings.clock.now() }
            core.events.append(.result(run.arguments, result, run.context, runHandlers: run.handlers))
            core.events.append(.state(core.state, run.context, .everyone(runHandlers: run.handlers)))
            return true
        }
        if accepted { deliver() }
    }

    /// Applies a run's end to the state; returns what its waiters get.
    func finish(
        run id: Int, with result: Result<State.Value, any Error>
    ) -> Result<State.Value, any Error> {
        let (outcome, unused) = core.withLock { core -> (Result<State.Value, any Error>, Bool) in
            guard let run = core.runs.removeValue(forKey: id) else { return (result, false) }
            let date = settings.now()
            var outcome = result
            switch result {
            case .success(let value):
                core.state.apply(.finished(run: id, result: .success(value), date: date))
                core.valueSetAt = settings.clock.now()
                core.freshAfterInvalidation = max(core.freshAfterInvalidation, run.invalidations)
                core.events.append(
                    .result(run.arguments, .success(value), run.context, runHandlers: run.handlers))
            case .failure(let error as State.Failure) where !(error is CancellationError):
                core.state.apply(.finished(run: id, result: .failure(error), date: date))
                core.events.append(
                    .result(run.arguments, .failure(error), run.context, runHandlers: run.handlers))
            case .failure(let error):
                if !(error is CancellationError) {
                    reportIssue(
                        "The operation at \(path) threw \(type(of: error)), which is not its "
                            + "Failure type \(State.Failure.self); the run counts as cancelled.")
                    outcome = .failure(CancellationError())
                }
                core.state.apply(.cancelled(run: id, date: date))
            }
            if run.task.runReason != .requested, !run.task.hasBeenJoined, core.runs.isEmpty,
                !(outcome.failure is CancellationError)
            {
                core.unclaimedRun = run.task
            }
            core.events.append(.runEnded(run.arguments, run.context, runHandlers: run.handlers))
            core.events.append(.state(core.state, run.context, .everyone(runHandlers: run.handlers)))
            return (outcome, core.subscribers.isEmpty && core.runs.isEmpty)
        }
        deliver()
        if unused { settings.onUnused() }
        return outcome
    }
}
