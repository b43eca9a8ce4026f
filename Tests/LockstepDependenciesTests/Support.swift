import Dependencies
import Foundation
import Lockstep

// A list feature that reads its ids, dates and a greeting through `@Dependency`. Under a test,
// a dependency read with no override is reported as a failure, so every test below fails if the
// work it names reads the task's values instead of the store's.

struct Item: Equatable, Sendable {
    var id: UUID
    var createdAt: Date
}

struct ListState: Equatable, Sendable {
    var items: [Item] = []
    var fetched: [UUID] = []
    var greeting = ""
}

enum ListAction: Equatable, Sendable {
    case add
    case load
    case loaded(UUID)
    case greet
    case stamp
}

let epoch = Date(timeIntervalSince1970: 0)

func listReducer(_ state: inout ListState, _ action: ListAction) {
    @Dependency(\.uuid) var uuid
    @Dependency(\.date.now) var now
    @Dependency(\.greeting) var greeting
    switch action {
    case .add:
        state.items.append(Item(id: uuid(), createdAt: now))
    case .loaded(let id):
        state.fetched.append(id)
    case .greet:
        state.greeting = greeting
    case .load, .stamp:
        break
    }
}

/// Loads an id from `uuid` for `.load`.
let loadMiddleware: PlainMiddleware<ListState, ListAction> = { _, action, dispatch in
    guard action == .load else { return }
    @Dependency(\.uuid) var uuid
    await dispatch(.loaded(uuid()))
}

/// Answers `.stamp` with an id from `uuid`, read in the effect's own task.
func stampEffect() -> Effect<ListAction> {
    Effect { actions in
        actions.compactMap { action -> ListAction? in
            guard action == .stamp else { return nil }
            @Dependency(\.uuid) var uuid
            return .loaded(uuid())
        }
    }
}

private enum GreetingKey: DependencyKey {
    static let liveValue = "live"
    static let previewValue = "preview"
    static let testValue = "test"
}

extension DependencyValues {
    var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }
}
