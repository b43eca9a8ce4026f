// The code of the section "Ids and dates a reducer needs" of the article "Dependencies"
// (Sources/Lockstep/Documentation.docc/Dependencies.md), which quotes it, and its test.
import Foundation
import Lockstep
import LockstepTesting
import Synchronization
import Testing

// MARK: - The generators, a dependency like any other

struct Generators: Sendable {
    var uuid: @Sendable () -> UUID
    var now: @Sendable () -> Date
}

extension Generators {
    static let live = Generators(uuid: { UUID() }, now: { Date() })

    /// Ids 00000000-…-000000000000, …-000000000001, and so on, and one fixed date.
    static func incrementing(startingAt date: Date) -> Generators {
        let next = LockIsolatedCounter()
        return Generators(
            uuid: { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", next.increment()))! },
            now: { date })
    }
}

/// A counter for the incrementing generator.
final class LockIsolatedCounter: Sendable {
    private let count = Mutex(-1)

    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}

/// Where the app sends the action (a button's handler), with the generators it was given: the
/// reducer gets the values in the action and stays pure, with no action in between.
@MainActor
func addNote(_ text: String, to store: Store<NotesState, NotesAction>, using generators: Generators) async {
    await store.dispatch(.add(id: generators.uuid(), created: generators.now(), text: text))
}

// MARK: - The feature: the values come in the action

struct Note: Equatable, Sendable, Identifiable {
    let id: UUID
    let created: Date
    var text: String
}

struct NotesState: Equatable, Sendable {
    var notes: [Note] = []
}

enum NotesAction: Equatable, Sendable {
    case addTapped(String)
    case add(id: UUID, created: Date, text: String)
}

func notesReducer(_ state: inout NotesState, _ action: NotesAction) {
    switch action {
    case .addTapped:
        break
    case .add(let id, let created, let text):
        state.notes.append(Note(id: id, created: created, text: text))
    }
}

/// The one place that asks for an id and a date: the edge, with the generators it is given.
let notesMiddleware: Middleware<NotesState, NotesAction, Generators> = { _, action, generators, dispatch in
    guard case .addTapped(let text) = action else { return }
    await dispatch(.add(id: generators.uuid(), created: generators.now(), text: text))
}

// MARK: - The test

@MainActor
@Suite("Ids and dates a reducer needs")
struct IdsAndDatesTests {
    @Test func addingANoteGetsTheIdAndDateOfTheGenerators() async {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let store = TestStore(
            state: NotesState(), reducer: notesReducer,
            services: Generators.incrementing(startingAt: date), middlewares: [notesMiddleware])
        let first = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

        await store.send(.addTapped("Buy milk"))
        await store.receive(.add(id: first, created: date, text: "Buy milk")) {
            $0.notes = [Note(id: first, created: date, text: "Buy milk")]
        }
    }

    @Test func theCallerPassesTheValuesInTheAction() async {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let store = Store(state: NotesState(), reducer: notesReducer)
        await addNote("Buy milk", to: store, using: .incrementing(startingAt: date))
        #expect(store.state.notes.map(\.created) == [date])
        #expect(store.state.notes.map(\.id.uuidString) == ["00000000-0000-0000-0000-000000000000"])
    }

    @Test func aTestCanSendTheValuesItself() async {
        let date = Date(timeIntervalSince1970: 0)
        let id = UUID(uuidString: "00000000-0000-0000-0000-000000000042")!
        let store = TestStore(state: NotesState(), reducer: notesReducer)
        await store.send(.add(id: id, created: date, text: "Call Ada")) {
            $0.notes = [Note(id: id, created: date, text: "Call Ada")]
        }
    }
}
