import Dependencies
import Foundation
import IdentifiedCollections
import LockstepDependencies
import LockstepCasePathsTesting
import LockstepPersistence
import LockstepTesting
import SyncUps

/// What a test's speech recognizer hears: a transcript, or a failure.
enum SpeechEvent: Sendable {
    case transcript(String)
    case failure
}

/// The recognizer fails.
struct SpeechFailure: Error {}

/// The transcripts a test sends through an event source, as the speech client's sequence: the
/// test's `send` returns once the meeting handled the transcript.
struct Transcripts: AsyncSequence, Sendable {
    typealias Element = String
    typealias Failure = any Error

    let source: EventSource<SpeechEvent>

    struct AsyncIterator: AsyncIteratorProtocol {
        var events: EventSource<SpeechEvent>.AsyncIterator

        mutating func next() async throws -> String? {
            switch await events.next() {
            case .transcript(let transcript): return transcript
            case .failure: throw SpeechFailure()
            case nil: return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: source.makeAsyncIterator())
    }
}

/// The date of every test.
let testDate = Date(timeIntervalSince1970: 1_234_567_890)

extension StackState<Path> {
    /// The detail of Design, sharing the list's row.
    static func detail(of state: AppState) -> StackState<Path> {
        StackState([.detail(SyncUpDetailState(syncUp: Shared(state.list.$syncUps[id: SyncUp.design.id])!))])
    }

    /// The detail of Design and its meeting in progress, sharing the list's row.
    static func meeting(of state: AppState) -> StackState<Path> {
        let syncUp = Shared(state.list.$syncUps[id: SyncUp.design.id])!
        return StackState([.detail(SyncUpDetailState(syncUp: syncUp)), .record(RecordMeetingState(syncUp: syncUp))])
    }
}

extension SyncUp {
    /// Design, three attendees, six seconds: two a speaker.
    static let design = SyncUp(
        id: UUID(100),
        attendees: [Attendee(id: UUID(101), name: "Blob"), Attendee(id: UUID(102), name: "Blob Jr"), Attendee(id: UUID(103), name: "Blob Sr")],
        duration: .seconds(6),
        meetings: [Meeting(id: UUID(104), date: Date(timeIntervalSince1970: 0), transcript: "Hello")],
        theme: .orange,
        title: "Design"
    )
}

/// How a test composes the app: as `appFeature`, one lift per feature, or with the separate
/// lifters (`appReducer` and `appSideEffects`), which the Navigation article shows.
enum Composition: CaseIterable, Sendable {
    case feature, separateLifters
}

/// A test's doubles: the meeting's clock, the recognizer's transcripts, the settings app and the
/// file of sync-ups, in memory. Its store's ids count up from `UUID(0)` and its date is
/// `testDate` (swift-dependencies' `.incrementing` and `.constant`).
@MainActor
final class Harness {
    let clock = ManualClock(name: "meeting timer")
    let speech = EventSource<SpeechEvent>(name: "speech")
    let openedSettings = CallRecorder<Void>()
    let storage: InMemoryStorage
    let persisted: PersistedState<IdentifiedArrayOf<SyncUp>>
    var services: SyncUpsServices

    /// Doubles whose storage holds `syncUps`, or `data` when given.
    init(syncUps: IdentifiedArrayOf<SyncUp> = [.design], data: Data? = nil) {
        storage = InMemoryStorage(data ?? (try! JSONEncoder().encode(syncUps)))
        persisted = PersistedState(storage: storage)
        let speech = speech
        services = .unimplemented
        services.clock = clock
        services.speech.authorizationStatus = { .authorized }
        services.speech.transcripts = { Transcripts(source: speech) }
    }

    /// The sync-ups the storage holds now.
    var saved: IdentifiedArrayOf<SyncUp>? {
        storage.data.flatMap { try? JSONDecoder().decode(IdentifiedArrayOf<SyncUp>.self, from: $0) }
    }

    /// The app's test store, launched from the storage, with the screens `path` makes of the
    /// launched state pushed on the list.
    func makeStore(
        composition: Composition = .feature,
        path: (AppState) -> StackState<Path> = { _ in StackState() },
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStore<AppState, AppAction> {
        var state = await launchState(from: persisted)
        state.path = path(state)
        let persisted = persisted
        let services = services
        let openedSettings = openedSettings
        return withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(testDate)
            $0.settings.open = { openedSettings.record() }
        } store: {
            switch composition {
            case .feature:
                TestStore(
                    state: state, feature: appFeature(persisted: persisted), services: services,
                    fileID: fileID, filePath: filePath, line: line, column: column)
            case .separateLifters:
                TestStore(
                    state: state, reducer: appReducer, services: services,
                    fileID: fileID, filePath: filePath, line: line, column: column
                ) {
                    appSideEffects(persisted: persisted)
                }
            }
        }
    }
}
