import Foundation
import IdentifiedCollections
import Lockstep
import LockstepCasePaths

/// The form that edits a sync-up, shown in a sheet to add one and to edit one.
public struct SyncUpFormState: Equatable, Sendable {
    /// The field that has the keyboard.
    public enum Field: Hashable, Sendable {
        /// The name of this attendee.
        case attendee(Attendee.ID)
        /// The sync-up's title.
        case title
    }

    /// The field that has the keyboard.
    public var focus: Field? = .title
    /// The sync-up as edited so far.
    public var syncUp: SyncUp

    /// A form of `syncUp`, with the keyboard in `focus`.
    public init(focus: Field? = .title, syncUp: SyncUp) {
        self.focus = focus
        self.syncUp = syncUp
    }
}

/// What the form's controls send.
@CasePathable
public enum SyncUpFormAction: BindableAction, Equatable, Sendable {
    /// A control wrote a field: the title, the length, the theme, or the keyboard's focus.
    case binding(BindingAction<SyncUpFormState>)
    /// An attendee's name field changed.
    case attendeeNameChanged(id: Attendee.ID, name: String)
    /// The user tapped New attendee.
    case addAttendeeTapped
    /// The user swiped these attendees away.
    case deleteAttendees(atOffsets: IndexSet)
    /// A new attendee, with an id from the generators.
    case attendeeAdded(Attendee)
}

/// Edits the sync-up; a new attendee comes in `attendeeAdded`, with its id.
public let syncUpFormReducer: InPlaceReducer<SyncUpFormState, SyncUpFormAction> = combineReducers(
    bindingReducer(),
    { state, action in
        switch action {
        case .attendeeNameChanged(let id, let name):
            state.syncUp.attendees[id: id]?.name = name
        case .binding, .addAttendeeTapped:
            break
        case .deleteAttendees(let offsets):
            guard let first = offsets.first else { return }
            state.syncUp.attendees.remove(atOffsets: offsets)
            let next = min(first, state.syncUp.attendees.count - 1)
            state.focus = state.syncUp.attendees.indices.contains(next) ? .attendee(state.syncUp.attendees[next].id) : nil
        case .attendeeAdded(let attendee):
            state.syncUp.attendees.append(attendee)
            state.focus = .attendee(attendee.id)
        }
    }
)

/// Makes the attendee the user adds, and the one a sync-up keeps when the user deletes them all.
public let syncUpFormMiddleware: Middleware<SyncUpFormState, SyncUpFormAction, SyncUpsServices> = {
    state, action, services, dispatch in
    switch action {
    case .addAttendeeTapped:
        await dispatch(.attendeeAdded(Attendee(id: services.uuid())))
    case .deleteAttendees where state.syncUp.attendees.isEmpty:
        await dispatch(.attendeeAdded(Attendee(id: services.uuid())))
    default:
        break
    }
}
