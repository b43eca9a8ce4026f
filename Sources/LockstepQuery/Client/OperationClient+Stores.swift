import Foundation
import IssueReporting
import Lockstep

extension OperationClient {
    // MARK: Stores

    /// The store of `query`: the same store for every equal query, made on first use.
    ///
    /// An empty ``OperationRequest/path`` is reported as an issue, and the query's own value is used
    /// as its key. A key already used by a query or mutation of another type is reported as an
    /// issue too, and this returns a store of its own that the client does not keep.
    public func store<Query: QueryRequest>(
        for query: Query
    ) -> OperationStore<QueryState<Query.Value, Query.Failure>> {
        let behavior = OperationStore<QueryState<Query.Value, Query.Failure>>.QueryBehavior(
            arguments: (), staleness: query.staleness)
        return store(
            for: query, path: query.path, initialState: QueryState(initialValue: query.defaultValue),
            query: behavior
        ) { _, context, continuation in
            try await query.fetch(isolation: nil, in: context, with: continuation)
        }
    }

    /// The store of `mutation`: the same store for every equal mutation, made on first use.
    ///
    /// Bad keys are handled as ``store(for:)-(Query)`` handles them.
    public func store<Mutation: MutationRequest>(
        for mutation: Mutation
    ) -> OperationStore<MutationState<Mutation.Arguments, Mutation.Value, Mutation.Failure>> {
        store(
            for: mutation, path: mutation.path,
            initialState: MutationState(historyLimit: mutation.historyLimit), query: nil
        ) { arguments, context, continuation in
            try await mutation.mutate(
                isolation: nil, with: arguments, in: context, with: continuation)
        }
    }

    func store<Request: OperationRequest, State: OperationState>(
        for request: Request,
        path requestedPath: OperationPath,
        initialState: State,
        query: OperationStore<State>.QueryBehavior?,
        body: @escaping OperationStore<State>.Body
    ) -> OperationStore<State> {
        var path = requestedPath
        if path.isEmpty {
            reportIssue(
                "\(Request.self) has an empty path; using the request itself as its key instead.")
            path = OperationPath(request)
        }
        let requestType = ObjectIdentifier(Request.self)
        var swept: [any EvictableStore] = []
        let (existing, created, conflict) = storage.withLock {
            storage -> (OperationStore<State>?, OperationStore<State>?, (any EvictableStore)?) in
            swept = sweep(&storage)
            if let entry = storage.entries[path] {
                if entry.store.requestType == requestType, let store = entry.store as? OperationStore<State> {
                    return (store, nil, nil)
                }
                let store = makeStore(request, path, requestType, initialState, query, storage.context, body)
                return (nil, store, entry.store)
            }
            let store = makeStore(request, path, requestType, initialState, query, storage.context, body)
            storage.entries[path] = Entry(store: store)
            return (nil, store, nil)
        }
        if let conflict {
            reportIssue(
                "The key \(path) of \(Request.self) is already used by \(conflict.requestTypeName). "
                    + "Give one of them a path of its own; this store is not kept by the client.")
        }
        if let created {
            created.startControllers()
            notify(added: conflict == nil ? [created] : [], removed: swept)
        } else {
            notify(added: [], removed: swept)
        }
        return existing ?? created!
    }

    func makeStore<Request: OperationRequest, State: OperationState>(
        _ request: Request,
        _ path: OperationPath,
        _ requestType: ObjectIdentifier,
        _ initialState: State,
        _ query: OperationStore<State>.QueryBehavior?,
        _ context: OperationContext,
        _ body: @escaping OperationStore<State>.Body
    ) -> OperationStore<State> {
        var context = context
        context.client = self
        context.retryLimit = storeCreator.retryLimit
        context.backoff = storeCreator.backoff ?? .exponential(.seconds(1))
        context.delayer = storeCreator.delayer
        context.automaticFetchingCondition = storeCreator.queryEnableAutomaticFetchingCondition
        request.setup(context: &context)
        let settings = StoreSettings(
            clock: clock, now: now, tracker: tracker,
            onUnused: { [weak self] in self?.scheduleEviction(of: path) })
        return OperationStore(
            path: path, requestType: requestType, initialState: initialState, query: query,
            settings: settings, context: context, body: body)
    }

    /// The stores whose paths start with `prefix`, by path. The empty path matches every store.
    public func stores(
        matching prefix: OperationPath = OperationPath()
    ) -> [OperationPath: any OpaqueOperationStore] {
        storesWithPaths(matching: prefix).mapValues { $0 }
    }

    /// The stores of state `State` whose paths start with `prefix`, by path.
    ///
    /// ```swift
    /// let users = client.stores(matching: ["users"], of: QueryState<User, any Error>.self)
    /// for store in users.values { store.currentValue?.name += "!" }
    /// ```
    ///
    /// If stores match `prefix` but none has state `State`, the type is probably wrong: that is
    /// reported as an issue, and the result is empty.
    public func stores<State: OperationState>(
        matching prefix: OperationPath = OperationPath(),
        of stateType: State.Type
    ) -> [OperationPath: OperationStore<State>] {
        typed(storesWithPaths(matching: prefix), of: stateType, prefix: prefix, caller: "stores(matching:of:)")
    }

    /// The store kept at exactly `path`, if any.
    ///
    /// ```swift
    /// client.store(with: ["users", 42])?.resetState()
    /// ```
    public func store(with path: OperationPath) -> (any OpaqueOperationStore)? {
        storesWithPaths(matching: path)[path]
    }

    /// Edits the set of stores whose paths start with `prefix`: the closure gets them by path, and
    /// the stores it removes from the dictionary are removed from the client (as
    /// ``clearStores(matching:)`` removes them); a store it adds under its own path is kept by
    /// the client. The closure runs without the client's lock held, so it may use the stores and
    /// the client; the edits are applied when it returns.
    ///
    /// ```swift
    /// client.withStores(matching: ["users"]) { stores in
    ///   stores = stores.filter { $0.value.subscriberCount > 0 }
    /// }
    /// ```
    @discardableResult
    public func withStores<T>(
        matching prefix: OperationPath = OperationPath(),
        perform edit: (inout [OperationPath: any OpaqueOperationStore]) throws -> T
    ) rethrows -> T {
        let before: [OperationPath: any OpaqueOperationStore] = storesWithPaths(matching: prefix)
            .mapValues { $0 }
        var after = before
        let result = try edit(&after)
        apply(before: before, after: after, prefix: prefix)
        return result
    }

    /// Edits the stores of state `State` whose paths start with `prefix`, as
    /// ``withStores(matching:perform:)`` does; stores of other types are left alone.
    ///
    /// ```swift
    /// client.withStores(matching: ["users"], of: QueryState<User, any Error>.self) { stores in
    ///   for store in stores.values { store.setResult(to: .failure(SessionError.signedOut)) }
    ///   stores.removeAll()
    /// }
    /// ```
    @discardableResult
    public func withStores<State: OperationState, T>(
        matching prefix: OperationPath = OperationPath(),
        of stateType: State.Type,
        perform edit: (inout [OperationPath: OperationStore<State>]) throws -> T
    ) rethrows -> T {
        let before = typed(
            storesWithPaths(matching: prefix), of: stateType, prefix: prefix,
            caller: "withStores(matching:of:perform:)")
        var after = before
        let result = try edit(&after)
        apply(before: before.mapValues { $0 }, after: after.mapValues { $0 }, prefix: prefix)
        return result
    }

    /// Hears stores being added to and removed from the client, for paths that start with
    /// `prefix`; `onChange` runs after the change, without the client's lock held.
    ///
    /// ```swift
    /// let subscription = client.subscribe(matching: ["users"]) { change in
    ///   for path in change.storesAdded.keys { print("added", path) }
    /// }
    /// ```
    public func subscribe(
        matching prefix: OperationPath = OperationPath(),
        onChange: @escaping @Sendable (StoreChange) -> Void
    ) -> OperationSubscription {
        let id = storage.withLock { storage in
            defer { storage.nextWatcher += 1 }
            storage.watchers[storage.nextWatcher] = ChangeWatcher(prefix: prefix, onChange: onChange)
            return storage.nextWatcher
        }
        return OperationSubscription { [weak self] in
            _ = self?.storage.withLock { $0.watchers.removeValue(forKey: id) }
        }
    }

    func typed<State: OperationState>(
        _ stores: [OperationPath: any EvictableStore],
        of stateType: State.Type,
        prefix: OperationPath,
        caller: String
    ) -> [OperationPath: OperationStore<State>] {
        let typed = stores.compactMapValues { $0 as? OperationStore<State> }
        if typed.isEmpty, !stores.isEmpty {
            let kinds = Set(stores.values.map(\.requestTypeName)).sorted().joined(separator: ", ")
            reportIssue(
                "\(caller): no store matching \(prefix) has state \(State.self); the stores there "
                    + "have \(kinds).")
        }
        return typed
    }

    func apply(
        before: [OperationPath: any OpaqueOperationStore],
        after: [OperationPath: any OpaqueOperationStore],
        prefix: OperationPath
    ) {
        var rejected: [String] = []
        let (added, removed, timers) = storage.withLock { storage in
            var added: [any EvictableStore] = []
            var removed: [any EvictableStore] = []
            var timers: [Task<Void, Never>] = []
            for (path, store) in before where after[path] !== store {
                guard let entry = storage.entries[path], entry.store === store else { continue }
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
                removed.append(entry.store)
            }
            for (path, store) in after where before[path] !== store {
                guard let store = store as? any EvictableStore, store.path == path,
                    prefix.isPrefix(of: path), storage.entries[path] == nil
                else {
                    rejected.append(path.description)
                    continue
                }
                storage.entries[path] = Entry(store: store)
                added.append(store)
            }
            return (added, removed, timers)
        }
        for timer in timers { timer.cancel() }
        if !rejected.isEmpty {
            reportIssue(
                "withStores(matching:): a store added at \(rejected.joined(separator: ", ")) was not "
                    + "kept: it must sit at its own path, under \(prefix), where no store is kept yet.")
        }
        notify(added: added, removed: removed)
    }

    func notify(added: [any EvictableStore], removed: [any EvictableStore]) {
        guard !added.isEmpty || !removed.isEmpty else { return }
        let watchers = storage.withLock { $0.watchers.sorted { $0.key < $1.key }.map(\.value) }
        for watcher in watchers {
            var change = StoreChange()
            for store in added where watcher.prefix.isPrefix(of: store.path) {
                change.storesAdded[store.path] = store
            }
            for store in removed where watcher.prefix.isPrefix(of: store.path) {
                change.storesRemoved[store.path] = store
            }
            if !change.isEmpty { watcher.onChange(change) }
        }
    }

    func storesWithPaths(matching prefix: OperationPath) -> [OperationPath: any EvictableStore] {
        var swept: [any EvictableStore] = []
        let stores = storage.withLock { storage in
            swept = sweep(&storage)
            var stores: [OperationPath: any EvictableStore] = [:]
            for (path, entry) in storage.entries where prefix.isPrefix(of: path) {
                stores[path] = entry.store
            }
            return stores
        }
        notify(added: [], removed: swept)
        return stores
    }

    /// Forgets the stores whose paths start with `prefix` (all of them by default). Their runs go
    /// on; anyone holding one of them keeps it, and the next ``store(for:)-(Query)`` makes a new one.
    public func clearStores(matching prefix: OperationPath = OperationPath()) {
        forgetStores { path, _ in prefix.isPrefix(of: path) }
    }

    /// Forgets the kept stores `isForgotten` picks, cancels their eviction timers and tells the
    /// change subscribers; returns their paths.
    @discardableResult
    func forgetStores(
        where isForgotten: (OperationPath, any EvictableStore) -> Bool
    ) -> [OperationPath] {
        let (timers, removed) = storage.withLock { storage in
            var timers: [Task<Void, Never>] = []
            var removed: [any EvictableStore] = []
            for (path, entry) in storage.entries where isForgotten(path, entry.store) {
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
                removed.append(entry.store)
            }
            return (timers, removed)
        }
        for timer in timers { timer.cancel() }
        notify(added: [], removed: removed)
        return removed.map(\.path)
    }
}
