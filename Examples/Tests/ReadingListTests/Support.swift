import Foundation
import Lockstep
import LockstepQuery
import LockstepTesting
import ReadingList
import Synchronization

let dune = Book(id: 1, title: "Dune")
let mobyDick = Book(id: 2, title: "Moby-Dick")
let duneDetails = BookDetails(author: "Frank Herbert", pages: 412)
let mobyDickDetails = BookDetails(author: "Herman Melville", pages: 635)

/// A library double in memory: titles are unique, as in the database; a rename can be held on a
/// gate and made to fail.
final class TestLibrary: Library {
    private struct State {
        var books: [Book]
        var loads = 0
        var removed: [Int64] = []
        var nextFailure: LibraryError?
    }

    private let state: Mutex<State>
    private let renameGate: Gate?

    init(books: [Book] = [dune, mobyDick], renameGate: Gate? = nil) {
        state = Mutex(State(books: books))
        self.renameGate = renameGate
    }

    /// How many times the books were loaded.
    var loads: Int { state.withLock { $0.loads } }
    /// The ids removed, in order.
    var removed: [Int64] { state.withLock { $0.removed } }
    /// The books now.
    var current: [Book] { state.withLock { $0.books } }

    /// Makes the next write fail with `error`.
    func failNextWrite(with error: LibraryError) {
        state.withLock { $0.nextFailure = error }
    }

    func books() async throws(LibraryError) -> [Book] {
        state.withLock { state in
            state.loads += 1
            return state.books
        }
    }

    func add(title: String) async throws(LibraryError) -> Book {
        let title = try validatedTitle(title)
        return try state.withLock { state throws(LibraryError) in
            if let failure = state.nextFailure.take() { throw failure }
            guard !state.books.contains(where: { $0.title == title }) else { throw .duplicateTitle(title) }
            let book = Book(id: (state.books.map(\.id).max() ?? 0) + 1, title: title)
            state.books.append(book)
            return book
        }
    }

    func rename(_ id: Int64, to title: String) async throws(LibraryError) -> Book {
        await renameGate?.pass()
        let title = try validatedTitle(title)
        return try state.withLock { state throws(LibraryError) in
            if let failure = state.nextFailure.take() { throw failure }
            guard let index = state.books.firstIndex(where: { $0.id == id }) else { throw .unknownBook(id) }
            guard !state.books.contains(where: { $0.title == title && $0.id != id }) else { throw .duplicateTitle(title) }
            state.books[index].title = title
            return state.books[index]
        }
    }

    func remove(_ id: Int64) async throws(LibraryError) {
        try state.withLock { state throws(LibraryError) in
            if let failure = state.nextFailure.take() { throw failure }
            guard state.books.contains(where: { $0.id == id }) else { throw .unknownBook(id) }
            state.books.removeAll { $0.id == id }
            state.removed.append(id)
        }
    }
}

/// The services of a test: a library double, the fake catalog on `clock` with `latency`,
/// recording its requests in `requests`, `clock` for the debounce and throttle, and a query
/// client that never retries.
func testServices(
    library: any Library = TestLibrary(),
    clock: ManualClock = ManualClock(),
    latency: Duration = .zero,
    requests: CallRecorder<CatalogRequest> = CallRecorder(),
    queries: OperationClient = OperationClient(storeCreator: .defaultTesting)
) -> ReadingListServices {
    ReadingListServices(
        library: library,
        catalog: FakeCatalogServer(clock: clock, latency: latency, onRequest: { requests.record($0) }),
        clock: clock,
        queries: queries
    )
}

/// The app with `books` already loaded, as rows.
func loadedState(_ books: [Book] = [dune, mobyDick]) -> AppState {
    AppState(list: BookListState(rows: .init(uniqueElements: books.map(BookRowState.init(book:)))))
}

/// Runs `body` with a new temporary folder, removed afterwards.
func withTemporaryFolder<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reading-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Returns once the value at `keyPath` of `store`'s state satisfies `condition`: the actions a
/// bridge dispatched up to then have been reduced. A bridge keeps running after that, so a test
/// awaits this instead of the task that started it.
@MainActor
func reached<State, Action, Value: Equatable & Sendable>(
    _ store: some StoreProtocol<State, Action>,
    _ keyPath: KeyPath<State, Value> & Sendable,
    where condition: (Value) -> Bool
) async {
    for await value in store.select(keyPath) where condition(value) {
        return
    }
}
