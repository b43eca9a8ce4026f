import IssueReporting

/// A query or mutation with configuration of its own, made by a modifier such as
/// ``OperationRequest/retry(limit:)``.
///
/// A modified request runs its base and has the base's path, so it shares the base's store key:
/// use the same modified request everywhere you use that key. Its configuration is read when its
/// store is made.
///
/// ```swift
/// extension User {
///   static func query(id: Int) -> some QueryRequest<User, any Error> {
///     Query(id: id)
///       .retry(limit: 5)
///       .stale(after: .seconds(60))
///   }
/// }
/// ```
///
/// Each modifier wraps the request once more, applying its change after the ones inside it, so
/// the outermost modifier wins. Two modified requests are equal when their bases are.
public struct ModifiedOperation<Base: OperationRequest>: OperationRequest {
    /// The request being modified.
    public let base: Base

    private var edits: [@Sendable (inout OperationContext) -> Void] = []
    /// The query's default value, a `Base.Value`, when a modifier set one.
    private var defaultValueOverride: (any Sendable)?
    /// The query's staleness, a `Staleness<QueryState<Base.Value, Base.Failure>>`, when a modifier
    /// set one.
    private var stalenessOverride: (any Sendable)?

    init(base: Base) {
        self.base = base
    }

    public var path: OperationPath {
        base.path
    }

    public func setup(context: inout OperationContext) {
        base.setup(context: &context)
        for edit in edits { edit(&context) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.base == rhs.base
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(base)
    }

    func adding(_ edit: @escaping @Sendable (inout OperationContext) -> Void) -> Self {
        var modified = self
        modified.edits.append(edit)
        return modified
    }

    fileprivate func with(defaultValue: any Sendable) -> Self {
        var modified = self
        modified.defaultValueOverride = defaultValue
        return modified
    }

    fileprivate func with(staleness: any Sendable) -> Self {
        var modified = self
        modified.stalenessOverride = staleness
        return modified
    }
}

extension ModifiedOperation: QueryRequest where Base: QueryRequest {
    public typealias Value = Base.Value
    public typealias Failure = Base.Failure

    public var staleness: Staleness<QueryState<Base.Value, Base.Failure>> {
        stalenessOverride as? Staleness<QueryState<Base.Value, Base.Failure>> ?? base.staleness
    }

    public var defaultValue: Base.Value? {
        defaultValueOverride as? Base.Value ?? base.defaultValue
    }

    public func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<Base.Value, Base.Failure>
    ) async throws(Base.Failure) -> Base.Value {
        try await base.fetch(isolation: isolation, in: context, with: continuation)
    }
}

extension ModifiedOperation: MutationRequest where Base: MutationRequest {
    public typealias Arguments = Base.Arguments

    public var historyLimit: Int {
        base.historyLimit
    }

    public func mutate(
        isolation: isolated (any Actor)?,
        with arguments: Base.Arguments,
        in context: OperationContext,
        with continuation: OperationContinuation<Base.Value, Base.Failure>
    ) async throws(Base.Failure) -> Base.Value {
        try await base.mutate(isolation: isolation, with: arguments, in: context, with: continuation)
    }
}

// MARK: - Modifiers of every request

extension OperationRequest {
    /// This request, wrapped for a modifier.
    var modifiable: ModifiedOperation<Self> {
        ModifiedOperation(base: self)
    }

    /// The request with its own retry limit: how many times a failed run is tried again.
    ///
    /// It overrides the client's default, including the test default of no retries. A negative
    /// `limit` is reported as an issue and taken as 0.
    ///
    /// ```swift
    /// let query = User.query(id: 42).retry(limit: 5)
    /// ```
    public func retry(limit: Int) -> ModifiedOperation<Self> {
        var limit = limit
        if limit < 0 {
            reportIssue("retry(limit:) must not be negative; got \(limit), using 0.")
            limit = 0
        }
        return modifiable.adding { [limit] in $0.retryLimit = limit }
    }

    /// The request with its own wait before each retry.
    ///
    /// ```swift
    /// let query = User.query(id: 42).retry(limit: 3).backoff(.linear(.seconds(2)))
    /// ```
    public func backoff(_ backoff: OperationBackoffFunction) -> ModifiedOperation<Self> {
        modifiable.adding { $0.backoff = backoff }
    }

    /// The request with its own way of waiting between retries.
    ///
    /// ```swift
    /// let query = User.query(id: 42).retry(limit: 3).delayer(.clock(testClock))
    /// ```
    public func delayer(_ delayer: OperationDelayer) -> ModifiedOperation<Self> {
        modifiable.adding { $0.delayer = delayer }
    }

    /// The request fetches on its own only while `condition` holds, and catches up on a stale
    /// value when it becomes satisfied while the store has subscribers.
    ///
    /// ```swift
    /// let signedIn = ManualCondition(false)
    /// let query = Inbox.query.enableAutomaticFetching(onlyWhen: signedIn.condition)
    /// ```
    public func enableAutomaticFetching(onlyWhen condition: FetchCondition) -> ModifiedOperation<Self> {
        modifiable.adding { $0.automaticFetchingCondition = condition }
    }

    /// The request never fetches on its own: only explicit fetches run it.
    ///
    /// ```swift
    /// let query = Report.query.disableAutomaticFetching()
    /// ```
    public func disableAutomaticFetching() -> ModifiedOperation<Self> {
        enableAutomaticFetching(onlyWhen: .always(false))
    }

    /// A store that has never been fetched waits for an explicit fetch instead of fetching for its
    /// first subscriber, or on reconnection, focus or a trigger. Once fetched, it refetches as
    /// usual.
    ///
    /// ```swift
    /// let query = Search.query(text: "").lazy()
    /// ```
    public func lazy() -> ModifiedOperation<Self> {
        modifiable.adding { $0.isLazy = true }
    }

    /// The store refetches a stale value whenever `condition` becomes satisfied while it has
    /// subscribers (and automatic fetching allows it).
    ///
    /// ```swift
    /// let query = Feed.query.refetchOnChange(of: userChanged.condition)
    /// ```
    public func refetchOnChange(of condition: FetchCondition) -> ModifiedOperation<Self> {
        modifiable.adding { $0.refetchTriggers.append(condition) }
    }

    /// The store does not refetch when the network comes back.
    ///
    /// ```swift
    /// let query = Settings.query.disableRefetchOnReconnect()
    /// ```
    public func disableRefetchOnReconnect() -> ModifiedOperation<Self> {
        modifiable.adding { $0.refetchesOnReconnect = false }
    }

    /// The store does not refetch when the app becomes active.
    ///
    /// ```swift
    /// let query = Settings.query.disableRefetchOnFocus()
    /// ```
    public func disableRefetchOnFocus() -> ModifiedOperation<Self> {
        modifiable.adding { $0.refetchesOnFocus = false }
    }

    /// The request with a change of its own to the context its store runs with.
    ///
    /// ```swift
    /// let query = User.query(id: 42).context { $0[APIBaseURL.self] = stagingURL }
    /// ```
    public func context(
        _ edit: @escaping @Sendable (inout OperationContext) -> Void
    ) -> ModifiedOperation<Self> {
        modifiable.adding(edit)
    }
}

// MARK: - Modifiers of queries

extension QueryRequest {
    /// The query with a value its store holds before the first fetch and after a reset.
    ///
    /// ```swift
    /// let query = Settings.query.defaultValue(Settings())
    /// client.store(for: query).currentValue  // Settings(), before any fetch
    /// ```
    public func defaultValue(_ value: Value) -> ModifiedOperation<Self> {
        modifiable.with(defaultValue: value)
    }

    /// The query stays fresh for `duration` after each value, then is stale.
    ///
    /// A zero or negative `duration` is reported as an issue and the query is stale at once.
    ///
    /// ```swift
    /// let query = User.query(id: 42).stale(after: .seconds(60))
    /// ```
    public func stale(after duration: Duration) -> ModifiedOperation<Self> {
        guard duration > .zero else {
            reportIssue(
                "stale(after:) needs a positive duration; got \(duration), so the query is stale "
                    + "at once.")
            return staleness(.immediately)
        }
        return staleness(.after(duration))
    }

    /// The query is stale when `predicate` says so about its state.
    ///
    /// ```swift
    /// let query = User.query(id: 42).staleWhen { $0.currentValue == nil }
    /// ```
    public func staleWhen(
        _ predicate: @escaping @Sendable (QueryState<Value, Failure>) -> Bool
    ) -> ModifiedOperation<Self> {
        staleness(.when(predicate))
    }

    /// The query with its own ``Staleness``.
    ///
    /// ```swift
    /// let query = Countries.query.staleness(.never)
    /// ```
    public func staleness(_ staleness: Staleness<QueryState<Value, Failure>>) -> ModifiedOperation<Self> {
        modifiable.with(staleness: staleness)
    }

    /// The query's store is also driven by `controller`, from the moment the store is made until
    /// it is released.
    ///
    /// ```swift
    /// let query = Prices.query.controlled(by: PriceSocketController(socket: socket))
    /// ```
    public func controlled<Controller: OperationController>(
        by controller: Controller
    ) -> ModifiedOperation<Self> where Controller.State == QueryState<Value, Failure> {
        modifiable.adding { $0.controllers.append(ControllerBox(controller)) }
    }
}

// MARK: - Modifiers of mutations

extension MutationRequest {
    /// The mutation's store is also driven by `controller`, from the moment the store is made
    /// until it is released.
    ///
    /// ```swift
    /// let mutation = SendMessage().controlled(by: OutboxController())
    /// ```
    public func controlled<Controller: OperationController>(
        by controller: Controller
    ) -> ModifiedOperation<Self>
    where Controller.State == MutationState<Arguments, Value, Failure> {
        modifiable.adding { $0.controllers.append(ControllerBox(controller)) }
    }
}
