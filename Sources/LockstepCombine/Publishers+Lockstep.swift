import Lockstep

extension Publisher {
    /// The values that are instances of `type`, cast to it.
    ///
    /// In an effect's pipeline, this picks the actions of one type:
    ///
    /// ```swift
    /// static let postScore = Effect(dispatch: true) { actions in
    ///     actions
    ///         .ofType(PostScore.self)          // a publisher of PostScore
    ///         .flatMap(getPostAPI)
    ///         .eraseToAnyPublisher()
    /// }
    /// ```
    ///
    /// - Parameter type: The type of the values to keep.
    /// - Returns: A publisher of the values that are `type`, in their original order.
    public func ofType<Kept>(_ type: Kept.Type) -> Publishers.CompactMap<Self, Kept> {
        compactMap { $0 as? Kept }
    }

    /// The values that are instances of any of `types`, uncast.
    ///
    /// Any number of types works:
    ///
    /// ```swift
    /// actions
    ///     .ofTypes(HomeScore.self, AwayScore.self, ResetScore.self)
    ///     .map { action in ... }          // action is the store's action type
    /// ```
    ///
    /// - Parameter types: The types of the values to keep.
    /// - Returns: A publisher of the values that are one of `types`, in their original order.
    public func ofTypes<each Kept>(_ types: repeat (each Kept).Type) -> Publishers.Filter<Self> {
        let matches = typeMatcher(Output.self, repeat each types)
        return filter { matches($0) }
    }
}

extension StoreProtocol {
    /// A publisher of the actions the store receives from now on, each after the reducer has
    /// applied it.
    ///
    /// ```swift
    /// store.actionsPublisher()
    ///     .ofType(Scoreboard.PostScoreSuccess.self)
    ///     .sink { _ in showAlert = true }
    ///     .store(in: &cancellables)
    /// ```
    ///
    /// The publisher runs an effect on the store for as long as the publisher or one of its
    /// subscriptions exists, and publishes each action from it: a dispatch returns after the
    /// subscribers have received its action (and the actions its effects emitted). Actions are
    /// published on the task that runs the store's effects. On a mock store, this is every
    /// action dispatched after the call, as a Combine subject would deliver them.
    ///
    /// - Returns: A publisher of the store's actions, that never finishes while it is in use.
    public func actionsPublisher() -> AnyPublisher<Action, Never> {
        let subject = SubjectBox(PassthroughSubject<Action, Never>())
        let registration = register(Effect(dispatch: false) { actions in
            actions.map { action -> Action in
                subject.subject.send(action)
                return action
            }
        })
        return subject.subject
            .handleEvents(receiveSubscription: { _ in withExtendedLifetime(registration) {} })
            .eraseToAnyPublisher()
    }
}
