import IdentifiedCollections
import Lockstep
import LockstepCasePaths
import LockstepPersistence

// The same app composed with the separate lifters, as the article "Navigation" shows them: each
// reducer and each middleware lifted on its own, for code that writes them apart. `appFeature`
// holds the same pieces; a test runs a store of each.

/// The reducers of the stack's screens, one call a kind.
let pathReducer: InPlaceReducer<Path, PathAction> = combineReducers(
    scopeReducer(syncUpDetailReducer, state: \.detail, action: \.detail),
    scopeReducer(recordMeetingReducer, state: \.record, action: \.record)
)

/// The app's reducer: the list's, the stack's and the app's own. A screen's change to its
/// sync-up is the list's too: the sync-up is shared.
public let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
    scopeReducer(syncUpsListReducer, state: \.list, action: \.list),
    forEachReducer(pathReducer, state: \.path, action: \.path),
    appCoreReducer
)

/// The side effects of the stack's screens, one call a kind, and the detail's form, reached through
/// the detail's destination.
@SideEffectBuilder<Path, PathAction, SyncUpsServices>
var pathSideEffects: [SideEffect<Path, PathAction, SyncUpsServices>] {
    scopeMiddleware(syncUpDetailMiddleware, state: \Path.Cases.detail, action: \PathAction.Cases.detail)
    scopeMiddleware(recordMeetingMiddleware, state: \Path.Cases.record, action: \PathAction.Cases.record)
}

/// The app's side effects: the list's, the stack's, and the saving of the sync-ups.
@SideEffectBuilder<AppState, AppAction, SyncUpsServices>
public func appSideEffects(persisted: PersistedState<IdentifiedArrayOf<SyncUp>>)
    -> [SideEffect<AppState, AppAction, SyncUpsServices>]
{
    forEachMiddleware(pathSideEffects, state: \AppState.path, action: \AppAction.Cases.path)
    persistMiddleware(\AppState.list.syncUps, to: persisted, failed: { .list(.saveFailed(message(for: $0))) })
}
