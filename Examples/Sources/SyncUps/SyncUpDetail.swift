import Dependencies
import Foundation
import IdentifiedCollections
import Lockstep
import LockstepCasePaths

/// A sync-up's screen: its attendees and past meetings, the form that edits it, and the alerts of
/// deleting it and of starting a meeting without speech recognition.
public struct SyncUpDetailState: Equatable, Sendable {
    /// What the screen presents: the form in a sheet, or an alert.
    public var destination: SyncUpDetailDestination?
    /// The sync-up shown: the list's row, shared.
    @Shared public var syncUp: SyncUp

    /// The screen of `syncUp`.
    public init(destination: SyncUpDetailDestination? = nil, syncUp: Shared<SyncUp>) {
        self.destination = destination
        self._syncUp = syncUp
    }
}

/// Everything the detail screen can present, one at a time.
@CasePathable
@dynamicMemberLookup
public enum SyncUpDetailDestination: Equatable, Sendable {
    /// One of the detail's alerts.
    case alert(AlertState<SyncUpDetailAlertAction>)
    /// The form that edits the sync-up, in a sheet.
    case edit(SyncUpFormState)
}

/// The actions of the presented destination.
@CasePathable
public enum SyncUpDetailDestinationAction: Equatable, Sendable {
    /// A button of the alert.
    case alert(SyncUpDetailAlertAction)
    /// An action of the form.
    case edit(SyncUpFormAction)
}

/// The buttons of the detail's alerts.
@CasePathable
public enum SyncUpDetailAlertAction: Equatable, Sendable {
    /// Delete the sync-up.
    case confirmDeletion
    /// Start the meeting without speech recognition.
    case continueWithoutRecording
    /// Open the settings, to allow speech recognition.
    case openSettings
}

/// What the detail's controls and side effects send.
@CasePathable
public enum SyncUpDetailAction: Equatable, Sendable {
    /// The user tapped the form's Cancel.
    case cancelEditTapped
    /// The user tapped Delete.
    case deleteTapped
    /// The user swiped these past meetings away.
    case deleteMeetings(atOffsets: IndexSet)
    /// An action of the presented destination, or its dismissal.
    case destination(PresentationAction<SyncUpDetailDestinationAction>)
    /// The user tapped the form's Done.
    case doneEditingTapped
    /// The user tapped Edit.
    case editTapped
    /// The user tapped a past meeting: the app pushes it.
    case meetingTapped(id: Meeting.ID)
    /// The user tapped Start meeting.
    case startMeetingTapped
    /// Speech recognition may not be used: the reason, from the speech client.
    case speechUnavailable(SpeechAuthorization)
    /// What the app does for the detail: start the meeting (push its screen).
    case delegate(Delegate)

    /// What the app does for the detail.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
        /// Push the meeting of this sync-up.
        case startMeeting
    }
}

extension AlertState where Action == SyncUpDetailAlertAction {
    /// Asks before deleting the sync-up.
    public static let deleteSyncUp = AlertState {
        TextState("Delete?")
    } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
        ButtonState(role: .cancel) { TextState("Nevermind") }
    } message: {
        TextState("Are you sure you want to delete this meeting?")
    }

    /// The user turned speech recognition off: go to the settings, or record without it.
    public static let speechRecognitionDenied = AlertState {
        TextState("Speech recognition denied")
    } actions: {
        ButtonState(action: .continueWithoutRecording) { TextState("Continue without recording") }
        ButtonState(action: .openSettings) { TextState("Open settings") }
        ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
        TextState("You previously denied speech recognition and so your meeting will not be recorded.")
    }

    /// The device does not allow speech recognition.
    public static let speechRecognitionRestricted = AlertState {
        TextState("Speech recognition restricted")
    } actions: {
        ButtonState(action: .continueWithoutRecording) { TextState("Continue without recording") }
        ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
        TextState("Your device does not support speech recognition and so your meeting will not be recorded.")
    }
}

let syncUpDetailCoreReducer: InPlaceReducer<SyncUpDetailState, SyncUpDetailAction> = { state, action in
    switch action {
    case .cancelEditTapped:
        state.destination = nil
    case .deleteTapped:
        state.destination = .alert(.deleteSyncUp)
    case .deleteMeetings(let offsets):
        state.syncUp.meetings.remove(atOffsets: offsets)
    case .doneEditingTapped:
        guard let edited = state.destination?.edit?.syncUp else { return }
        state.syncUp = edited
        state.destination = nil
    case .editTapped:
        state.destination = .edit(SyncUpFormState(syncUp: state.syncUp))
    case .speechUnavailable(let status):
        state.destination = .alert(status == .denied ? .speechRecognitionDenied : .speechRecognitionRestricted)
    case .destination, .meetingTapped, .startMeetingTapped, .delegate:
        break
    }
}

/// The destinations' reducers, one call a case: the form's; an alert needs none.
let syncUpDetailDestinationReducer: InPlaceReducer<SyncUpDetailDestination, SyncUpDetailDestinationAction> =
    combineReducers(
        scopeReducer(syncUpFormReducer, state: \.edit, action: \.edit)
    )

/// The detail's reducer: the destination's first, for its own actions, then the detail's, then the
/// closing of an alert after its button.
public let syncUpDetailReducer: InPlaceReducer<SyncUpDetailState, SyncUpDetailAction> = combineReducers(
    parent: syncUpDetailCoreReducer,
    children: ifLetReducer(syncUpDetailDestinationReducer, state: \.destination, action: \.destination)
)

/// Asks the speech client before a meeting starts, opens the settings, and closes the screen once
/// the user confirmed the deletion (the app removes the sync-up).
public let syncUpDetailMiddleware: Middleware<SyncUpDetailState, SyncUpDetailAction, SyncUpsServices> = {
    _, action, services, dispatch in
    switch action {
    case .startMeetingTapped:
        let status = services.speech.authorizationStatus()
        if status == .denied || status == .restricted {
            await dispatch(.speechUnavailable(status))
        } else {
            await dispatch(.delegate(.startMeeting))
        }
    case .destination(.presented(.alert(.continueWithoutRecording))):
        await dispatch(.delegate(.startMeeting))
    case .destination(.presented(.alert(.openSettings))):
        @Dependency(\.settings) var settings
        await settings.open()
    case .destination(.presented(.alert(.confirmDeletion))):
        await dispatch.dismiss()
    default:
        break
    }
}

/// The detail as one feature: its reducer (its destination's included) and its side effects.
public let syncUpDetailFeature = Feature<SyncUpDetailState, SyncUpDetailAction, SyncUpsServices>(
    reducer: syncUpDetailReducer
) {
    syncUpDetailMiddleware
}
