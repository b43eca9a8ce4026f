// The code of the article "Dependencies" (Sources/Lockstep/Documentation.docc/Dependencies.md)
// about `@Dependency`, which quotes it, and its tests.
import Dependencies
import DependenciesTestSupport
import Foundation
import Lockstep
import LockstepDependencies
import LockstepDependenciesTesting
import LockstepTesting
import Testing

// MARK: - A feature that reads its dependencies

struct Note: Equatable, Sendable, Identifiable {
    let id: UUID
    let created: Date
    var text: String
    var quote = ""
}

struct NotesState: Equatable, Sendable {
    var notes: [Note] = []
    var reminders: [Note.ID] = []
}

enum NotesAction: Equatable, Sendable {
    case addTapped(String)
    case remindLaterTapped(Note.ID)
    case remind(Note.ID)
    case quoteTapped(Note.ID)
    case quoteLoaded(Note.ID, String)
}

func notesReducer(_ state: inout NotesState, _ action: NotesAction) {
    @Dependency(\.uuid) var uuid
    @Dependency(\.date.now) var now
    switch action {
    case .addTapped(let text):
        state.notes.append(Note(id: uuid(), created: now, text: text))
    case .remind(let id):
        state.reminders.append(id)
    case .quoteLoaded(let id, let quote):
        guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return }
        state.notes[index].quote = quote
    case .remindLaterTapped, .quoteTapped:
        break
    }
}

let remindersMiddleware: PlainMiddleware<NotesState, NotesAction> = { _, action, dispatch in
    guard case .remindLaterTapped(let id) = action else { return }
    @Dependency(\.continuousClock) var clock
    guard (try? await clock.sleep(for: .seconds(3600))) != nil else { return }
    await dispatch(.remind(id))
}

let quotesMiddleware: PlainMiddleware<NotesState, NotesAction> = { _, action, dispatch in
    guard case .quoteTapped(let id) = action else { return }
    @Dependency(QuoteClient.self) var quotes
    guard let quote = try? await quotes.random() else { return }
    await dispatch(.quoteLoaded(id, quote))
}

// MARK: - A dependency of the app's own

struct QuoteClient: Sendable {
    var random: @Sendable () async throws -> String
}

extension QuoteClient: DependencyKey {
    static let liveValue = QuoteClient(random: {
        ["Simplicity is prerequisite for reliability.", "Premature optimization is the root of all evil."]
            .randomElement()!
    })
    static let previewValue = QuoteClient(random: { "A quote for the preview." })
    static let testValue = QuoteClient(random: IssueReporting.unimplemented("QuoteClient.random"))
}

// MARK: - The store

@MainActor
func makeNotesStore() -> Store<NotesState, NotesAction> {
    Store(state: NotesState(), reducer: notesReducer, middlewares: [remindersMiddleware, quotesMiddleware])
}

@MainActor
func makePreviewStore() -> Store<NotesState, NotesAction> {
    withDependencies {
        $0.context = .preview
    } store: {
        makeNotesStore()
    }
}

// MARK: - The tests

@MainActor
@Suite("The Dependencies article's snippets")
struct DependenciesArticleTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func addingANoteGetsAnIdAndTheDate() async {
        let store = withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
        } store: {
            TestStore(state: NotesState(), reducer: notesReducer)
        }

        await store.send(.addTapped("Buy milk")) {
            $0.notes = [Note(id: UUID(0), created: Date(timeIntervalSince1970: 1_800_000_000), text: "Buy milk")]
        }
        store.dependencies.uuid = .constant(UUID(42))
        await store.send(.addTapped("Call Ada")) {
            $0.notes.append(Note(id: UUID(42), created: Date(timeIntervalSince1970: 1_800_000_000), text: "Call Ada"))
        }
    }

    @Test func aReminderWaitsOnTheClock() async {
        let clock = ManualClock()
        let store = withDependencies {
            $0.continuousClock = clock
        } store: {
            TestStore(state: NotesState(), reducer: notesReducer, middlewares: [remindersMiddleware])
        }

        // `send` returns once the middleware sleeps on the clock; the clock then moves past the
        // deadline, and the test store waits for what the wake sends.
        await store.send(.remindLaterTapped(UUID(0)))
        await clock.advance(by: .seconds(3600))
        await store.receive(.remind(UUID(0))) {
            $0.reminders = [UUID(0)]
        }
    }

    @Test(.dependency(\.uuid, .incrementing), .dependency(\.date.now, Date(timeIntervalSince1970: 0)))
    func aTestTraitSetsTheDependenciesOfTheTestsOwnSteps() async {
        let store = TestStore(state: NotesState(), reducer: notesReducer)
        await store.send(.addTapped("Buy milk")) {
            $0.notes = [Note(id: UUID(0), created: Date(timeIntervalSince1970: 0), text: "Buy milk")]
        }
    }

    @Test func aQuoteComesFromTheTestsClient() async {
        let store = withDependencies {
            $0[QuoteClient.self].random = { "Simplicity is prerequisite for reliability." }
        } store: {
            TestStore(state: NotesState(), reducer: notesReducer, middlewares: [quotesMiddleware])
        }
        await store.send(.quoteTapped(UUID(0)))
        await store.receive(.quoteLoaded(UUID(0), "Simplicity is prerequisite for reliability."))
    }

    @Test func anEndpointTheTestDidNotSetFailsTheTest() async {
        let store = TestStore(state: NotesState(), reducer: notesReducer, middlewares: [quotesMiddleware])
        await withKnownIssue {
            await store.send(.quoteTapped(UUID(0)))
        }
    }

    @Test func aPreviewGetsThePreviewValues() async {
        let store = makePreviewStore()
        // Dispatched from tasks that inherit nothing, as a preview's buttons are.
        await Task.detached { await store.dispatch(.addTapped("Buy milk")) }.value
        let id = store.state.notes[0].id
        await Task.detached { await store.dispatch(.quoteTapped(id)) }.value
        #expect(store.state.notes.map(\.quote) == ["A quote for the preview."])
    }
}
