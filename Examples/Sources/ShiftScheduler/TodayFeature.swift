import Lockstep

/// The Today screen: the shifts of one day, and whether they are loading.
public struct TodayState: Codable, Equatable, Sendable {
    public var day: String
    public var isLoading = false
    public var scheduledShifts: [Shift] = []
    public var errorMessage: String?

    public init(day: String) {
        self.day = day
    }
}

public enum TodayAction: Codable, Equatable, Sendable {
    case loadShifts
    case shiftsLoaded(CalendarResult<[Shift]>)
}

public func todayReducer(state: TodayState, action: TodayAction) -> TodayState {
    var state = state
    switch action {
    case .loadShifts:
        state.isLoading = true
        state.errorMessage = nil
    case .shiftsLoaded(.success(let shifts)):
        state.isLoading = false
        state.scheduledShifts = shifts
    case .shiftsLoaded(.failure(let error)):
        state.isLoading = false
        state.errorMessage = error.description
    }
    return state
}

/// The week view: seven days of shifts from a first day.
public struct WeekState: Codable, Equatable, Sendable {
    public var firstDay: String
    public var lastDay: String
    public var isLoading = false
    public var shifts: [Shift] = []
    /// Why the week could not be loaded, shown instead of an empty week.
    public var errorMessage: String?

    public init(firstDay: String, lastDay: String) {
        self.firstDay = firstDay
        self.lastDay = lastDay
    }
}

public enum WeekAction: Codable, Equatable, Sendable {
    case loadWeek
    case weekLoaded([Shift])
    /// The week could not be loaded: a storage error is an error, not an empty week.
    case weekFailed(CalendarError)
}

public func weekReducer(state: WeekState, action: WeekAction) -> WeekState {
    var state = state
    switch action {
    case .loadWeek:
        state.isLoading = true
        state.errorMessage = nil
    case .weekLoaded(let shifts):
        state.isLoading = false
        state.shifts = shifts
    case .weekFailed(let error):
        state.isLoading = false
        state.shifts = []
        state.errorMessage = error.description
    }
    return state
}

/// Edits of the calendar, each performed by the middleware and reported back.
public enum EditAction: Codable, Equatable, Sendable {
    case add(Shift)
    case switchShift(id: Int64, title: String)
    case delete(id: Int64)
    case finished(CalendarResult<String>)
}

public struct EditState: Codable, Equatable, Sendable {
    public var isSaving = false
    public var lastResult: CalendarResult<String>?
}

public func editReducer(state: EditState, action: EditAction) -> EditState {
    var state = state
    switch action {
    case .add, .switchShift, .delete:
        state.isSaving = true
        state.lastResult = nil
    case .finished(let result):
        state.isSaving = false
        state.lastResult = result
    }
    return state
}

public struct AppState: Codable, Equatable, Sendable {
    public var today: TodayState
    public var week: WeekState
    public var edit = EditState()

    public init(today: String, weekEnd: String) {
        self.today = TodayState(day: today)
        self.week = WeekState(firstDay: today, lastDay: weekEnd)
    }
}

public enum AppAction: Codable, Equatable, Sendable {
    case today(TodayAction)
    case week(WeekAction)
    case edit(EditAction)

    public var today: TodayAction? { if case .today(let action) = self { action } else { nil } }
    public var week: WeekAction? { if case .week(let action) = self { action } else { nil } }
    public var edit: EditAction? { if case .edit(let action) = self { action } else { nil } }
}

public let appReducer = combineReducers(
    scopeReducer(todayReducer, state: \AppState.today, action: \AppAction.today),
    scopeReducer(weekReducer, state: \AppState.week, action: \AppAction.week),
    scopeReducer(editReducer, state: \AppState.edit, action: \AppAction.edit)
)

public struct ServiceContainer: Sendable {
    public let calendarService: any CalendarService

    public init(calendarService: any CalendarService) {
        self.calendarService = calendarService
    }
}

/// Loads the shifts of the Today feature's day: the feature's own middleware, which sees only
/// the Today state and actions.
public func todayFeatureMiddleware(
    today: TodayState,
    action: TodayAction,
    services: ServiceContainer,
    dispatch: Dispatcher<TodayAction>
) async {
    guard action == .loadShifts else { return }
    await dispatch.run { () async throws(CalendarError) in
        let shifts = try await services.calendarService.loadShifts(on: today.day)
        await dispatch(.shiftsLoaded(.success(shifts)))
    } catch: { error in
        await dispatch(.shiftsLoaded(.failure(error)))
    }
}

/// Loads today's shifts: ``todayFeatureMiddleware(today:action:services:dispatch:)`` lifted to
/// the app's `today` part and `today` actions.
public let todayMiddleware: SideEffect<AppState, AppAction, ServiceContainer> = scopeMiddleware(
    todayFeatureMiddleware, state: \AppState.today, action: \AppAction.today, embed: AppAction.today)

/// Loads the week, and performs edits; every edit reloads today's shifts.
public func calendarMiddleware(
    state: AppState,
    action: AppAction,
    services: ServiceContainer,
    dispatch: Dispatcher<AppAction>
) async {
    let calendar = services.calendarService
    switch action {
    case .week(.loadWeek):
        await dispatch.run { () async throws(CalendarError) in
            let shifts = try await calendar.loadShifts(from: state.week.firstDay, through: state.week.lastDay)
            await dispatch(.week(.weekLoaded(shifts)))
        } catch: { error in
            await dispatch(.week(.weekFailed(error)))
        }
    case .edit(.add(let shift)):
        await finish(dispatch) { () async throws(CalendarError) in "added \(try await calendar.add(shift).line)" }
    case .edit(.switchShift(let id, let title)):
        await finish(dispatch) { () async throws(CalendarError) in "switched \(try await calendar.switchShift(id, to: title).line)" }
    case .edit(.delete(let id)):
        await finish(dispatch) { () async throws(CalendarError) in
            try await calendar.deleteShift(id)
            return "deleted #\(id)"
        }
    default:
        break
    }
}

private func finish(
    _ dispatch: Dispatcher<AppAction>,
    _ edit: () async throws(CalendarError) -> String
) async {
    await dispatch.run { () async throws(CalendarError) in
        let message = try await edit()
        await dispatch(.edit(.finished(.success(message))))
        await dispatch(.today(.loadShifts))
    } catch: { error in
        await dispatch(.edit(.finished(.failure(error))))
    }
}

/// A store of the app, with both middlewares, and `observers` of its actions (a recorder).
@MainActor
public func makeStore(
    calendar: any CalendarService,
    today: String,
    weekEnd: String,
    observers: [ActionObserver<AppState, AppAction>] = []
) -> Store<AppState, AppAction> {
    Store(
        state: AppState(today: today, weekEnd: weekEnd),
        reducer: appReducer,
        services: ServiceContainer(calendarService: calendar),
        observers: observers
    ) {
        todayMiddleware
        calendarMiddleware
    }
}

/// The example's version, written in the header of the sessions it records.
public let shiftSchedulerVersion = "1.0"
