import Lockstep

/// The output of an effect built from a Combine pipeline, as the `AsyncSequence` an ``Effect``
/// runs.
///
/// Its iterator feeds the store's actions into the pipeline through a subject, one at a time:
/// it reads the next action only when the store has taken every output of the previous one, so
/// that the store's dispatch waits for what the pipeline emits at once.
struct PipelineOutput<Action: Sendable>: AsyncSequence, Sendable {
    typealias Element = Action
    typealias Failure = Never

    let actions: Actions<Action>
    let pipeline: @Sendable (AnyPublisher<Action, Never>) -> AnyPublisher<Action, Never>

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(run: PipelineRun(actions: actions, pipeline: pipeline))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let run: PipelineRun<Action>

        mutating func next() async -> Action? {
            await run.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Action? {
            await run.next()
        }
    }
}

/// One run of a pipeline effect: the subject that feeds it, the subscription to its output, the
/// task that reads the store's actions, and the outputs not read yet.
final class PipelineRun<Action: Sendable>: Sendable {
    private struct State {
        var isStarted = false
        /// The outputs not read yet, and the store's reader waiting for one.
        var outputs = ReaderBuffer<Action>()
        /// The feeding task, waiting for the reader to have taken every output.
        var feeder = WaiterQueue<Void, Void>()
        var feedingTask: Task<Void, Never>?
        var cancellable: Cancellation?
    }

    private let state = Lock(State())
    private let actions: Actions<Action>
    private let pipeline: @Sendable (AnyPublisher<Action, Never>) -> AnyPublisher<Action, Never>

    init(
        actions: Actions<Action>,
        pipeline: @escaping @Sendable (AnyPublisher<Action, Never>) -> AnyPublisher<Action, Never>
    ) {
        self.actions = actions
        self.pipeline = pipeline
    }

    deinit {
        let (task, cancellable) = state.withLock { ($0.feedingTask, $0.cancellable) }
        task?.cancel()
        cancellable?.cancel()
    }

    /// The next output of the pipeline, or `nil` when it has finished or the task is cancelled.
    func next() async -> Action? {
        startIfNeeded()
        // The reader's cancellation stops the run, which finishes the outputs and so ends the wait.
        let read = await withTaskCancellationHandler {
            await awaitChange(
                on: state, \.outputs.readers, for: (),
                immediate: { $0.outputs.take() },
                enqueued: { state in
                    // Waiting with no output left: the store has taken everything the pipeline
                    // emitted, so the feeder may read the next action.
                    let feeder = state.feeder.satisfy { _ in () }
                    return { for waiter in feeder { waiter.perform() } }
                })
        } onCancel: {
            stop()
        }
        guard case .satisfied(let output) = read else { return nil }
        return output
    }

    /// Subscribes to the pipeline and starts reading the store's actions, once.
    private func startIfNeeded() {
        let isFirst = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard isFirst else { return }
        let subject = SubjectBox(PassthroughSubject<Action, Never>())
        let cancellable = pipeline(subject.subject.eraseToAnyPublisher()).sink(
            receiveCompletion: { [weak self] _ in self?.finish() },
            receiveValue: { [weak self] action in self?.emit(action) }
        )
        let actions = self.actions
        // Under a test, on the test's executor with the effect that reads it.
        let task = Task(executorPreference: WorkTracking.preferredExecutor) { [weak self] in
            for await action in actions {
                subject.subject.send(action)
                guard let self, await self.outputsTaken() else { return }
            }
            subject.subject.send(completion: .finished)
        }
        let cancellation = Cancellation(cancellable)
        state.withLock { state in
            state.cancellable = cancellation
            state.feedingTask = task
        }
    }

    /// Hands `action` to the waiting reader, or keeps it for the next read.
    private func emit(_ action: Action) {
        let reader = state.withLock { state -> [ReaderBuffer<Action>.Resumption] in
            guard !state.outputs.isFinished else { return [] }
            return state.outputs.offer(action)
        }
        for waiter in reader { waiter.perform() }
    }

    /// Returns once the reader waits with no output left; `false` when the run has finished.
    private func outputsTaken() async -> Bool {
        _ = await awaitChange(on: state, \.feeder, for: ()) { state in
            let outputs = state.outputs
            return outputs.isFinished || (outputs.hasWaitingReader && outputs.values.isEmpty) ? () : nil
        }
        return !state.withLock { $0.outputs.isFinished }
    }

    /// The pipeline completed: the reader gets the outputs left, then `nil`.
    private func finish() {
        _ = endOutputs(discardingValues: false)
    }

    /// The reader was cancelled: stops feeding and cancels the pipeline.
    private func stop() {
        let (task, cancellable) = endOutputs(discardingValues: true)
        task?.cancel()
        cancellable?.cancel()
    }

    /// Ends the outputs and wakes the reader and the feeder; returns the feeding task and the
    /// subscription to the pipeline.
    private func endOutputs(discardingValues: Bool) -> (Task<Void, Never>?, Cancellation?) {
        let (reader, feeder, task, cancellable) = state.withLock { state in
            let reader = state.outputs.finish(discardingValues: discardingValues)
            return (reader, state.feeder.satisfy { _ in () }, state.feedingTask, state.cancellable)
        }
        for waiter in reader { waiter.perform() }
        for waiter in feeder { waiter.perform() }
        return (task, cancellable)
    }
}

