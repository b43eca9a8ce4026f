import Foundation
import IssueReporting
import Lockstep

// MARK: - Mutations

extension OperationStore {
    /// The arguments of the latest run, for a mutation's retry; reports an issue and throws if
    /// there is none.
    func argumentsToRetry() throws -> State.Arguments {
        guard let arguments = core.withLock({ $0.latestArguments }) else {
            reportIssue("retryLatest() was called on the mutation at \(path), which has not run yet.")
            throw NoLatestMutationError(path: path)
        }
        return arguments
    }
}

extension OperationStore where State: MutationStateProtocol {
    /// Runs the mutation with `arguments`, as a run of its own.
    ///
    /// - Returns: The mutation's value, which is also the store's ``currentValue``.
    @discardableResult
    public func mutate(with arguments: State.Arguments) async throws -> State.Value {
        try await run(arguments: arguments, deduplicate: false)
    }

    /// Runs the mutation again with the arguments of its latest run.
    ///
    /// ```swift
    /// do { try await store.mutate(with: "Ada") } catch { try await store.retryLatest() }
    /// ```
    ///
    /// - Throws: ``NoLatestMutationError`` (after reporting an issue) if the store has no run
    ///   since it was made or reset; otherwise what the run throws.
    @discardableResult
    public func retryLatest() async throws -> State.Value {
        try await run(arguments: try argumentsToRetry(), deduplicate: false)
    }
}

extension OperationStore {
    /// Runs the mutation with `arguments`, telling `handler` about this run alone: its start,
    /// results, state changes and end, each with the arguments.
    ///
    /// ```swift
    /// try await store.mutate(
    ///   with: "Ada",
    ///   handler: MutationEventHandler(onMutatingEnded: { name, _ in print("done", name) })
    /// )
    /// ```
    ///
    /// - Returns: The mutation's value, which is also the store's ``currentValue``.
    @discardableResult
    public func mutate<Arguments, Value, Failure>(
        with arguments: Arguments,
        handler: MutationEventHandler<Arguments, Value, Failure>
    ) async throws -> Value where State == MutationState<Arguments, Value, Failure> {
        try await run(arguments: arguments, deduplicate: false, handler: Listener(handler))
    }

    /// Runs the mutation again with the arguments of its latest run, telling `handler` about it.
    ///
    /// ```swift
    /// try await store.retryLatest(handler: MutationEventHandler(onMutatingStarted: { _, _ in }))
    /// ```
    @discardableResult
    public func retryLatest<Arguments, Value, Failure>(
        handler: MutationEventHandler<Arguments, Value, Failure>
    ) async throws -> Value where State == MutationState<Arguments, Value, Failure> {
        try await run(arguments: try argumentsToRetry(), deduplicate: false, handler: Listener(handler))
    }

    /// Subscribes `handler` to a mutation store's changes; its run events carry their arguments.
    ///
    /// ```swift
    /// store.subscribe(with: MutationEventHandler(onMutatingStarted: { name, _ in print(name) }))
    ///   .store(in: &subscriptions)
    /// ```
    public func subscribe<Arguments, Value, Failure>(
        with handler: MutationEventHandler<Arguments, Value, Failure>
    ) -> OperationSubscription where State == MutationState<Arguments, Value, Failure> {
        subscribe(Listener(handler))
    }
}

/// The error ``OperationStore/retryLatest()`` throws when the mutation has not run.
///
/// ```swift
/// do { try await store.retryLatest() } catch let error as NoLatestMutationError { print(error.path) }
/// ```
public struct NoLatestMutationError: Error, Equatable {
    /// The path of the mutation's store.
    public let path: OperationPath
}

extension OperationStore where State: MutationStateProtocol, State.Arguments == Void {
    /// Runs a mutation that takes no arguments.
    @discardableResult
    public func mutate() async throws -> State.Value {
        try await run(arguments: (), deduplicate: false)
    }
}

/// The state of a mutation's store; ``MutationState`` is the one conforming type. It is what makes
/// ``OperationStore/mutate(with:)`` available, and lets code accept the store of any mutation:
///
/// ```swift
/// func submit<State: MutationStateProtocol>(_ store: OperationStore<State>, _ arguments: State.Arguments) async {
///   _ = try? await store.mutate(with: arguments)
/// }
/// ```
public protocol MutationStateProtocol: OperationState {}

extension MutationState: MutationStateProtocol {}
