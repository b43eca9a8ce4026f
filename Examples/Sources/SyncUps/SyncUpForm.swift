import Dependencies
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
    /// The user swiped these attendees away: a sync-up keeps one, new, if they were all.
    case deleteAttendees(atOffsets: IndexSet)
}

/// Edits the sync-up: the controls' bindings, then the attendees; a new attendee's id comes from
/// the `uuid` dependency.
public let syncUpFormReducer: InPlaceReducer<SyncUpFormState, SyncUpFormAction> = combineReducers(
    bindingReducer(),
    { state, action in
        @Dependency(\.uuid) var uuid
        switch action {
        case .binding:
            break
        case .attendeeNameChanged(let id, let name):
            state.syncUp.attendees[id: id]?.name = name
        case .addAttendeeTapped:
            let attendee = Attendee(id: uuid())
            state.syncUp.attendees.append(attendee)
            state.focus = .attendee(attendee.id)
        case .deleteAttendees(let offsets):
            guard let first = offsets.first else { return }
            state.syncUp.attendees.remove(atOffsets: offsets)
            if state.syncUp.attendees.isEmpty {
                let attendee = Attendee(id: uuid())
                state.syncUp.attendees.append(attendee)
                state.focus = .attendee(attendee.id)
                return
            }
            let next = min(first, state.syncUp.attendees.count - 1)
            state.focus = .attendee(state.syncUp.attendees[next].id)
        }
    }
)
