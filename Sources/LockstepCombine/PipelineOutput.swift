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
        // The pipeline is built and subscribed now, not at the first `next()`: a pipeline that
        // reads the store's actions subscribes to them before the store learns that the effect
        // has started, so the actions kept for it still hold their dispatches.
        let run = PipelineRun(actions: actions, pipeline: pipeline)
        run.start()
        return AsyncIterator(run: run)
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
        /// Whether the pipeline subscribed to its input, and the feeding task reads the actions.
        var isFeeding = false
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
    /// Builds the pipeline on a subject and subscribes to its output. The store's actions are
    /// read only if the pipeline subscribes to the subject, and from that moment on (Combine
    /// subscribes synchronously through `map`, `filter` and their kind): a pipeline that never
    /// reads them (a timer) holds no dispatch.
    func start() {
        let isFirst = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard isFirst else { return }
        let subject = SubjectBox(PassthroughSubject<Action, Never>())
        // The feeding task starts when the pipeline subscribes, and may send the first action
        // before the pipeline's demand has reached the subject, which a `PassthroughSubject`
        // drops: the buffer asks the subject for everything as soon as it subscribes (before
        // the pipeline hears of the subscription) and keeps each action until it is asked for.
        let input = subject.subject
            .buffer(size: Int.max, prefetch: .byRequest, whenFull: .dropNewest)
            .handleEvents(receiveSubscription: { [weak self] _ in
                self?.feed(subject)
            })
        let cancellable = pipeline(input.eraseToAnyPublisher()).sink(
            receiveCompletion: { [weak self] _ in self?.finish() },
            receiveValue: { [weak self] action in self?.emit(action) }
        )
        let cancellation = Cancellation(cancellable)
        let task = state.withLock { state in
            state.cancellable = cancellation
            return state.feedingTask
        }
        // The pipeline may have finished (and been stopped) while it was built.
        if state.withLock({ $0.outputs.isFinished }) {
            task?.cancel()
            cancellation.cancel()
        }
    }

    /// Reads the store's actions into the subject, once: the pipeline's first subscription to
    /// its input makes the reader at once, the task feeds it.
    private func feed(_ subject: SubjectBox<PassthroughSubject<Action, Never>>) {
        let isFirst = state.withLock { state in
            defer { state.isFeeding = true }
            return !state.isFeeding
        }
        guard isFirst else { return }
        let reader = actions.makeAsyncIterator()
        // Under a test, on the test's executor with the effect that reads it.
        let task = Task(executorPreference: WorkTracking.preferredExecutor) { [weak self] in
            var reader = reader
            while let action = await reader.next() {
                subject.subject.send(action)
                guard let self, await self.outputsTaken() else { return }
            }
            subject.subject.send(completion: .finished)
        }
        state.withLock { $0.feedingTask = task }
    }

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

