import Lockstep

/// A type with a single entry point for events: every change goes through ``handle(_:)``.
///
/// A view model with a single entry point funnels every event of a screen (the user's, the
/// system's and the completions of its effects) into one `handle(_ when: When)`. Conforming to `WhenHandling` lets ``TestRunner``
/// drive such a type, event by event, and check its state after each one.
///
/// A synchronous throwing `handle(_:)` satisfies the requirement, and so
/// does a `@MainActor` one; the conformance is then an empty extension:
///
/// ```swift
/// @MainActor @Observable
/// final class MyViewModel {
///     var loading = false
///     func handle(_ when: When) throws { /* ... */ }
/// }
///
/// extension MyViewModel: WhenHandling {}
/// ```
///
/// `Store` conforms too, with its actions as events, so a ``TestRunner`` drives a store the same
/// way.
public protocol WhenHandling {
    /// The events the type handles, such as a `When` enum.
    associatedtype When: Sendable

    /// Handles one event, and returns when its effect on the state is applied.
    ///
    /// The requirement is `nonisolated(nonsending)`: it runs on the caller's actor, so a caller
    /// on the main actor (a `@MainActor` test, ``TestRunner``) hands a non-`Sendable` subject to
    /// it without crossing isolation. A `@MainActor` witness, synchronous or not, is called on
    /// the main actor.
    ///
    /// ```swift
    /// try await model.handle(.systemShowsUserProfileView)
    /// ```
    ///
    /// - Parameter when: The event.
    /// - Throws: Whatever the type throws for an event it rejects, such as `InvalidStateError`
    ///   for a completion that arrives in a state that does not expect it.
    nonisolated(nonsending) func handle(_ when: When) async throws
}

extension Store: WhenHandling {
    /// Dispatches `when` and returns when it and every side effect it caused are finished: the
    /// same as `dispatch(_:)`, under the name ``WhenHandling`` requires.
    ///
    /// ```swift
    /// await TestRunner<Store<Counter, CounterAction>>.GIVEN {
    ///     Store(state: Counter(), reducer: counterReducer)
    /// }
    /// .WHEN(.increment)
    /// .THEN(\.state.count, is: 1)
    /// .runTests()
    /// ```
    ///
    /// - Parameter when: The action to dispatch.
    public func handle(_ when: Action) async {
        await dispatch(when)
    }
}
