import Dependencies
import Foundation
import IdentifiedCollections
import Lockstep
import LockstepCasePaths

/// The app's first screen: every sync-up, and the form that adds one, in a sheet.
public struct SyncUpsListState: Equatable, Sendable {
    /// The form of the sync-up being added, there while its sheet is shown.
    public var addSyncUp: SyncUpFormState?
    /// An alert that says the sync-ups could not be loaded or saved.
    public var alert: AlertState<Never>?
    /// The sync-ups, shared with the screens that show one of them, and saved to a file
    /// whenever they change.
    @Shared public var syncUps: IdentifiedArrayOf<SyncUp>

    /// A list of these sync-ups.
    public init(addSyncUp: SyncUpFormState? = nil, alert: AlertState<Never>? = nil, syncUps: Shared<IdentifiedArrayOf<SyncUp>>) {
        self.addSyncUp = addSyncUp
        self.alert = alert
        self._syncUps = syncUps
    }
}

/// What the list's controls and side effects send.
@CasePathable
public enum SyncUpsListAction: Equatable, Sendable {
    /// The user tapped Add: the form starts from a new sync-up with one attendee.
    case addSyncUpTapped
    /// An action of the form in the sheet, or its dismissal.
    case addSyncUp(PresentationAction<SyncUpFormAction>)
    /// The user tapped the sheet's Add.
    case confirmAddSyncUpTapped
    /// The user tapped the sheet's Dismiss.
    case dismissAddSyncUpTapped
    /// The user swiped these sync-ups away.
    case deleteSyncUps(atOffsets: IndexSet)
    /// The user tapped a sync-up: the app pushes its detail.
    case syncUpTapped(id: SyncUp.ID)
    /// The alert was dismissed; its buttons send nothing.
    case alert(PresentationAction<Never>)
    /// The sync-ups could not be saved.
    case saveFailed(String)
}

extension AlertState where Action == Never {
    /// The sync-ups could not be read at launch: nothing is saved over them until they can.
    public static func dataFailedToLoad(_ reason: String) -> AlertState {
        AlertState {
            TextState("Data failed to load")
        } actions: {
            ButtonState(role: .cancel) { TextState("OK") }
        } message: {
            TextState("\(reason) Changes will not be saved.")
        }
    }

    /// A save failed.
    public static func saveFailed(_ reason: String) -> AlertState {
        AlertState {
            TextState("Couldn't save")
        } message: {
            TextState(reason)
        }
    }
}

let syncUpsListCoreReducer: InPlaceReducer<SyncUpsListState, SyncUpsListAction> = { state, action in
    @Dependency(\.uuid) var uuid
    switch action {
    case .addSyncUpTapped:
        state.addSyncUp = SyncUpFormState(syncUp: SyncUp(id: uuid(), attendees: [Attendee(id: uuid())]))
    case .confirmAddSyncUpTapped:
        guard var syncUp = state.addSyncUp?.syncUp else { return }
        let named = syncUp.attendees.filter { !$0.name.allSatisfy(\.isWhitespace) }
        syncUp.attendees = named.isEmpty ? IdentifiedArray(syncUp.attendees.prefix(1)) : named
        state.syncUps.append(syncUp)
        state.addSyncUp = nil
    case .dismissAddSyncUpTapped:
        state.addSyncUp = nil
    case .deleteSyncUps(let offsets):
        state.syncUps.remove(atOffsets: offsets)
    case .saveFailed(let reason):
        state.alert = .saveFailed(reason)
    case .addSyncUp, .syncUpTapped, .alert:
        break
    }
}

/// The list's reducer: the form's in the sheet first, for the form's actions, then the list's own, then
/// the closing of the alert or the sheet.
public let syncUpsListReducer: InPlaceReducer<SyncUpsListState, SyncUpsListAction> = combineReducers(
    parent: syncUpsListCoreReducer,
    children: ifLetReducer(syncUpFormReducer, state: \.addSyncUp, action: \.addSyncUp),
    ifLetReducer(state: \.alert, action: \.alert)
)

/// The list as a feature: its reducer; it has no side effects of its own.
public let syncUpsListFeature = Feature<SyncUpsListState, SyncUpsListAction, SyncUpsServices>(reducer: syncUpsListReducer)
