import Lockstep

extension OperationClient {
    /// A middleware that answers actions by fetching a query through this client, and dispatches
    /// the result as a new action.
    ///
    /// The fetch goes through the query's store, so it is cached, merged with fetches already in
    /// flight, retried as the client's store creator says, and seen by every other subscriber of
    /// that query:
    ///
    /// ```swift
    /// let store = Store(
    ///   state: AppState(),
    ///   reducer: appReducer,
    ///   services: services,
    ///   middlewares: [
    ///     client.middleware(
    ///       fetching: { (action: AppAction) -> User.Query? in
    ///         guard case .profile(.load(let id)) = action else { return nil }
    ///         return User.query(id: id)
    ///       },
    ///       then: { result in .profile(.loaded(result.map(\.name))) }
    ///     )
    ///   ]
    /// )
    /// await store.dispatch(.profile(.load(42)))   // returns after .profile(.loaded) is reduced
    /// ```
    ///
    /// The middleware copies the result of one fetch; it does not follow the query afterwards.
    /// To keep the state in sync with the query (refetches, optimistic updates, rollbacks), use an
    /// ``OperationBridge``.
    ///
    /// - Parameters:
    ///   - query: The query an action asks for, or `nil` for actions the middleware ignores.
    ///   - response: The action to dispatch with the fetch's result.
    public func middleware<State, Action: Sendable, Services, Query: QueryRequest>(
        fetching query: @escaping @Sendable (Action) -> Query?,
        then response: @escaping @Sendable (Result<Query.Value, any Error>) -> Action
    ) -> Middleware<State, Action, Services> {
        { [weak self] _, action, _, dispatch in
            guard let self, let request = query(action) else { return }
            let result: Result<Query.Value, any Error>
            do {
                result = .success(try await store(for: request).fetch())
            } catch {
                result = .failure(error)
            }
            await dispatch(response(result))
        }
    }
}
