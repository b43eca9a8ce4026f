/// An asynchronous side effect that runs after the reducer for every dispatched action.
///
/// A middleware receives the state right after the reducer applied the action, the action, the
/// app's services and a ``Dispatcher`` for follow-up actions. Any function of this shape works,
/// including a plain function:
///
/// ```swift
/// func todayMiddleware(
///     state: AppState,
///     action: AppAction,
///     services: ServiceContainer,
///     dispatch: Dispatcher<AppAction>
/// ) async {
///     guard case .today(.loadShifts) = action else { return }
///     do {
///         let shifts = try await services.calendarService.loadShifts()
///         await dispatch(.today(.shiftsLoaded(.success(shifts))))
///     } catch {
///         await dispatch(.today(.shiftsLoaded(.failure(.loadFailed))))
///     }
/// }
/// ```
///
/// Every middleware sees every action and ignores the ones it does not handle. The middlewares
/// of a store run concurrently with each other, and ``Store/dispatch(_:)`` returns only when all
/// of them have returned. A middleware that never finishes on its own (it listens to a stream)
/// ends when the task that awaits the dispatch is cancelled, or when the store is released.
public typealias Middleware<State, Action: Sendable, Services> = @Sendable (
    _ state: State,
    _ action: Action,
    _ services: Services,
    _ dispatch: Dispatcher<Action>
) async -> Void

