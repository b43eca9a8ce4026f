import Lockstep

extension Effect {
    /// Creates an effect from a Combine pipeline over the store's actions.
    ///
    /// The closure receives the store's actions as a publisher and returns a publisher of the
    /// actions that report the results, as in any Combine-based Redux library:
    ///
    /// ```swift
    /// static let postScore = Effect(dispatch: true) { actions in
    ///     actions
    ///         .ofType(PostScore.self)
    ///         .flatMap(getPostAPI)            // returns AnyPublisher<any ScoreboardAction, Never>
    ///         .eraseToAnyPublisher()
    /// }
    /// ```
    ///
    /// Register it with `store.register(_:)` or pass it to a store's initializer, as any effect.
    ///
    /// ## Dispatch waits for the pipeline
    ///
    /// The effect hands the pipeline one action at a time, and the next one only when every
    /// action the pipeline emitted for it has been dispatched. So for a pipeline that emits while
    /// it receives (`map`, `compactMap`, `filter`, `flatMap` into `Just` or another publisher
    /// that emits at once), `await store.dispatch(action)` returns once the actions it emitted are
    /// dispatched and reduced. What a pipeline emits later (after a `receive(on:)`, a `delay`, a
    /// network call) is dispatched when it comes, as an action of its own that no dispatch
    /// waits for.
    ///
    /// The actions publisher sends each action once, to every subscriber of the pipeline, and
    /// does not buffer: an operator that limits its demand (`flatMap(maxPublishers: .max(1))`)
    /// drops the actions it did not ask for. When the effect stops, the actions publisher
    /// finishes and the pipeline's subscription is cancelled.
    ///
    /// - Parameters:
    ///   - dispatch: Whether the actions the pipeline emits are dispatched to the store. Pass
    ///     `false` for an effect that only performs side effects.
    ///   - fileID: The file that creates the effect, naming it in `name`; leave the default.
    ///   - line: The line that creates the effect; leave the default.
    ///   - source: Returns the pipeline's publisher of output actions, given the store's actions.
    @_disfavoredOverload
    public init<Output: Publisher>(
        dispatch: Bool = true,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ source: @escaping @Sendable (_ actions: AnyPublisher<Action, Never>) -> Output
    ) where Output.Output == Action, Output.Failure == Never, Output: SendableMetatype {
        let erased: @Sendable (AnyPublisher<Action, Never>) -> AnyPublisher<Action, Never> = {
            source($0).eraseToAnyPublisher()
        }
        self.init(dispatch: dispatch, fileID: fileID, line: line) { (actions: Actions<Action>) in
            PipelineOutput(actions: actions, pipeline: erased)
        }
    }

    /// Runs the effect on its own, on the actions `actions` publishes, and publishes what it
    /// emits.
    ///
    /// This is how a test drives any effect, Combine-based or not, with a subject:
    ///
    /// ```swift
    /// let actions = PassthroughSubject<any ScoreboardAction, Never>()
    /// let cancellable = Scoreboard.postScore.source(actions.eraseToAnyPublisher()).sink { result in
    ///     #expect(result is Scoreboard.PostScoreSuccess)
    ///     received.signal()
    /// }
    /// actions.send(Scoreboard.PostScore(home: "0", away: "0"))
    /// ```
    ///
    /// Each subscription subscribes to `actions` at once, so a subject's values sent right after
    /// `sink` reach the effect. What the effect emits is delivered on the main actor; the
    /// subscription finishes when `actions` finishes and the effect has emitted everything, or
    /// when the effect's pipeline ends or throws.
    ///
    /// - Parameter actions: The actions the effect reacts to.
    /// - Returns: The actions the effect emits, whatever the value of `dispatch`.
    public func source<Input: Publisher>(
        _ actions: Input
    ) -> AnyPublisher<Action, Never> where Input.Output == Action, Input.Failure == Never {
        EffectSource(effect: self, actions: actions).eraseToAnyPublisher()
    }
}

/// The publisher of ``Effect/source(_:)-(Publisher)``: each subscription subscribes to the
/// actions at once, and publishes what the effect emits for them.
private struct EffectSource<Action: Sendable, Input: Publisher>: Publisher
where Input.Output == Action, Input.Failure == Never {
    typealias Output = Action
    typealias Failure = Never

    let effect: Effect<Action>
    let actions: Input

    func receive<S: Subscriber>(subscriber: S) where S.Input == Action, S.Failure == Never {
        let values = PublishedValues<Action>()
        actions.subscribe(values.subscriber)
        let effect = self.effect
        AsyncSequencePublisher(deferring: { { effect.source(values) } }).receive(subscriber: subscriber)
    }
}

extension EffectRegistration {
    /// Keeps the registration in a set of Combine cancellables, so the effect runs as long as
    /// the set holds it, next to the subscriptions of the same object.
    ///
    /// ```swift
    /// store.register(showAlert).store(in: &cancellableSet)   // cancellableSet: Set<AnyCancellable>
    /// ```
    ///
    /// - Parameter set: The set that keeps the effect running.
    public func store(in set: inout Set<AnyCancellable>) {
        cancellable.store(in: &set)
    }

    /// A Combine cancellable that stops the effect when it is cancelled or released.
    ///
    /// ```swift
    /// let cancellable: AnyCancellable = store.register(logActions).cancellable
    /// ```
    public var cancellable: AnyCancellable {
        AnyCancellable { self.cancel() }
    }
}
