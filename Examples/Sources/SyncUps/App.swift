import Foundation
import IdentifiedCollections
import Lockstep
import LockstepCasePaths
import LockstepPersistence

/// A past meeting's screen: what was said. It has no actions.
public struct MeetingState: Equatable, Sendable {
    /// The meeting.
    public var meeting: Meeting
    /// The sync-up it belongs to.
    public var syncUp: SyncUp

    /// The screen of `meeting`.
    public init(meeting: Meeting, syncUp: SyncUp) {
        self.meeting = meeting
        self.syncUp = syncUp
    }
}

/// The screens the app pushes on its stack, three kinds.
@CasePathable
@dynamicMemberLookup
public enum Path: Equatable, Sendable {
    /// A sync-up's detail.
    case detail(SyncUpDetailState)
    /// A past meeting.
    case meeting(MeetingState)
    /// A meeting in progress.
    case record(RecordMeetingState)
}

/// The actions of the stack's screens, one case a kind; a past meeting has none.
@CasePathable
public enum PathAction: Equatable, Sendable {
    /// An action of a detail.
    case detail(SyncUpDetailAction)
    /// A past meeting has no actions.
    case meeting(Never)
    /// An action of a meeting in progress.
    case record(RecordMeetingAction)
}

/// The app: the list at the root of a navigation stack of details, past meetings and meetings in
/// progress.
public struct AppState: Equatable, Sendable {
    /// The root screen.
    public var list: SyncUpsListState
    /// The screens pushed on the list, bottom first.
    public var path: StackState<Path>

    /// The app with this list and these screens pushed.
    public init(list: SyncUpsListState, path: StackState<Path> = StackState()) {
        self.list = list
        self.path = path
    }
}

/// The app's actions: the list's and the stack's.
@CasePathable
public enum AppAction: Equatable, Sendable {
    /// An action of the list.
    case list(SyncUpsListAction)
    /// A push, a pop, or an action of a screen of the stack.
    case path(StackAction<Path, PathAction>)
}

/// Pushes the screens: a sync-up's detail from the list, a past meeting or a new meeting from the
/// detail; removes a sync-up the detail deleted.
let appCoreReducer: InPlaceReducer<AppState, AppAction> = { state, action in
    switch action {
    case .list(.syncUpTapped(let id)):
        guard let syncUp = Shared(state.list.$syncUps[id: id]) else { return }
        state.path.append(.detail(SyncUpDetailState(syncUp: syncUp)))
    case .path(.element(let id, .detail(.meetingTapped(let meetingID)))):
        guard let syncUp = state.path[id: id]?.detail?.syncUp, let meeting = syncUp.meetings[id: meetingID] else { return }
        state.path.append(.meeting(MeetingState(meeting: meeting, syncUp: syncUp)))
    case .path(.element(let id, .detail(.delegate(.startMeeting)))):
        guard let syncUp = state.path[id: id]?.detail?.$syncUp else { return }
        state.path.append(.record(RecordMeetingState(syncUp: syncUp)))
    case .path(.element(let id, .detail(.destination(.presented(.alert(.confirmDeletion)))))):
        guard let syncUp = state.path[id: id]?.detail?.syncUp else { return }
        state.list.syncUps.remove(id: syncUp.id)
    default:
        break
    }
}

/// The stack's screens as one feature: each kind's feature lifted to its case in one call (a
/// past meeting has none).
let pathFeature = Feature<Path, PathAction, SyncUpsServices>(reducer: { _, _ in })
    .ifCaseLet(\.detail, action: \.detail) { syncUpDetailFeature }
    .ifCaseLet(\.record, action: \.record) { recordMeetingFeature }

/// The app: its own pushes and the saving of the sync-ups, the list lifted to its part and the
/// screens to the stack, each in one call. A screen's change to its sync-up is the list's too:
/// the sync-up is shared.
public func appFeature(persisted: PersistedState<IdentifiedArrayOf<SyncUp>>) -> Feature<AppState, AppAction, SyncUpsServices> {
    Feature(reducer: appCoreReducer) {
        persistMiddleware(\AppState.list.syncUps, to: persisted, failed: { .list(.saveFailed(message(for: $0))) })
    }
    .scope(state: \.list, action: \.list) { syncUpsListFeature }
    .forEach(state: \.path, action: \.path) { pathFeature }
}

/// The app's first state: the sync-ups `persisted` holds (none the first time), or an empty list
/// with an alert when they could not be read.
public func launchState(from persisted: PersistedState<IdentifiedArrayOf<SyncUp>>) async -> AppState {
    do throws(PersistenceError) {
        return AppState(list: SyncUpsListState(syncUps: Shared(value: try await persisted.load() ?? [])))
    } catch {
        return AppState(list: SyncUpsListState(alert: .dataFailedToLoad(message(for: error)), syncUps: Shared(value: [])))
    }
}

/// What the user reads of a persistence error: what failed and where. The whole description, with
/// the decoder's reason, is for a log.
func message(for error: PersistenceError) -> String {
    switch error.kind {
    case .unreadable: "The sync-ups at \(error.location) could not be read."
    case .undecodable: "The sync-ups at \(error.location) could not be decoded."
    case .notLoaded: "The sync-ups at \(error.location) were not loaded, so nothing is saved over them."
    case .unwritable: "The sync-ups could not be saved to \(error.location)."
    }
}
