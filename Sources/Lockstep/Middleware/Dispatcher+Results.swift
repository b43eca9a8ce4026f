extension Dispatcher {
    /// Runs `operation` and dispatches the action `makeAction` makes of its result: the value it
    /// returned or the error it threw. Nothing is dispatched when the work was cancelled.
    ///
    /// The `do`/`catch` a middleware would write around every request, in one call:
    ///
    /// ```swift
    /// case .load:
    ///     await dispatch(BookListAction.loaded) { try await library.books() }
    /// ```
    ///
    /// where `loaded` takes a `Result<[Book], LibraryError>`. A typed throw keeps its error type
    /// (`LibraryError` here); an untyped one gives `any Error`.
    ///
    /// When the task running the middleware is cancelled (by ``cancel(id:)``, by a newer run under
    /// `cancelInFlight`, by the dismissal of the feature, by the store's release), nothing is
    /// dispatched, not even a failure: a `CancellationError`, or any result that arrives after
    /// the cancellation, is dropped.
    ///
    /// - Parameters:
    ///   - makeAction: Makes the action to dispatch from the result, usually an action case that
    ///     takes a `Result`.
    ///   - isolation: The actor the work runs on; the caller's by default.
    ///   - operation: The work.
    public func callAsFunction<Success, Failure: Error>(
        _ makeAction: (Result<Success, Failure>) -> Action,
        isolation: isolated (any Actor)? = #isolation,
        resultOf operation: () async throws(Failure) -> Success
    ) async {
        let result: Result<Success, Failure>
        do throws(Failure) {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        if case .failure(let error) = result, error is CancellationError { return }
        guard !Task.isCancelled else { return }
        await body(makeAction(result))
    }

    /// Runs `operation`, which dispatches what it learns, and hands any error it throws to
    /// `handler`, except a cancellation, which ends the work silently.
    ///
    /// For work that dispatches more than one action, or none on success:
    ///
    /// ```swift
    /// case .save(let profile):
    ///     await dispatch.run {
    ///         try await api.save(profile)
    ///         await dispatch(.saved)
    ///         await dispatch(.reloadRequested)
    ///     } catch: { error in
    ///         await dispatch(.saveFailed(error.localizedDescription))
    ///     }
    /// ```
    ///
    /// `handler` is not called when the operation throws a `CancellationError`, or throws at all
    /// once its task is cancelled: cancelled work reports nothing.
    ///
    /// - Parameters:
    ///   - isolation: The actor the work runs on; the caller's by default.
    ///   - operation: The work.
    ///   - handler: Called with the error the work threw, to dispatch a failure action.
    public func run<Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> Void,
        catch handler: (Failure) async -> Void
    ) async {
        do throws(Failure) {
            try await operation()
        } catch {
            guard !(error is CancellationError), !Task.isCancelled else { return }
            await handler(error)
        }
    }
}
