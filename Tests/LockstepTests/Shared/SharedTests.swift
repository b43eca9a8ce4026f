import Foundation
import IdentifiedCollections
import Lockstep
import Observation
import Testing

private struct Meeting: Equatable, Codable, Sendable {
    var transcript: String
}

private struct SyncUp: Equatable, Identifiable, Codable, Sendable {
    let id: Int
    var title: String
    var notes = ""
    var meetings: [Meeting] = []
}

private struct Detail: Equatable, Sendable {
    @Shared var syncUp: SyncUp
    var isEditing = false
}

private struct AppState: Equatable, Sendable {
    @Shared var syncUps: IdentifiedArrayOf<SyncUp>
    var detail: Detail?
}

private enum AppAction: Sendable {
    case open(id: Int)
    case rename(String)
    case remove(id: Int)
}

private func appReducer(_ state: inout AppState, _ action: AppAction) {
    switch action {
    case .open(let id):
        if let syncUp = Shared(state.$syncUps[id: id]) {
            state.detail = Detail(syncUp: syncUp)
        }
    case .rename(let title):
        state.detail?.syncUp.title = title
    case .remove(let id):
        state.syncUps.remove(id: id)
    }
}

/// One observation of `read`, whose change resumes a waiting task.
@MainActor
private final class ChangeSignal {
    private var fired = false
    private var waiter: CheckedContinuation<Void, Never>?

    init(_ read: @escaping @MainActor () -> Void) {
        withObservationTracking { read() } onChange: { [weak self] in
            Task { @MainActor in self?.fire() }
        }
    }

    var hasFired: Bool { fired }

    private func fire() {
        fired = true
        waiter?.resume()
        waiter = nil
    }

    func wait() async {
        if fired { return }
        await withCheckedContinuation { waiter = $0 }
    }
}

@Suite("Shared: one value held by several features")
struct SharedTests {
    @Test("a write through one holder is read by every other, and by the parts shared from it")
    func copiesShareOneValue() {
        let syncUp = Shared(value: SyncUp(id: 1, title: "Design"))
        let list = Detail(syncUp: syncUp)
        var other = list
        other.isEditing = true
        other.syncUp.title = "Engineering"
        #expect(list.syncUp.title == "Engineering")

        let title = syncUp.title
        title.wrappedValue = "Product"
        #expect(list.syncUp.title == "Product")
        #expect(title.sharesStorage(with: syncUp))
        #expect(!Shared(value: 0).sharesStorage(with: syncUp))
    }

    @Test("a row shared from a collection is written in place, and once removed keeps its last value and drops writes")
    func rowOfACollection() throws {
        let syncUps = Shared(value: IdentifiedArrayOf<SyncUp>(uniqueElements: [
            SyncUp(id: 1, title: "Design"), SyncUp(id: 2, title: "Product"),
        ]))
        #expect(Shared(syncUps[id: 3]) == nil)
        let row = try #require(Shared(syncUps[id: 2]))
        row.wrappedValue.title = "Sales"
        #expect(syncUps.wrappedValue[id: 2]?.title == "Sales")

        syncUps.withLock { _ = $0.remove(id: 2) }
        #expect(row.wrappedValue.title == "Sales")
        row.wrappedValue.title = "Lost"
        #expect(syncUps.wrappedValue.ids == [1])
    }

    @Test("withLock is one step: increments from many tasks at once are all counted")
    func withLockIsAtomic() async {
        let count = Shared(value: 0)
        // Twenty tasks, not hundreds: each runs its loop without suspending, and a test must not
        // hold the cooperative pool's threads from the other tests that run beside it.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    for _ in 0..<100 { count.withLock { $0 += 1 } }
                }
            }
        }
        #expect(count.wrappedValue == 2_000)
    }

    @Test("A read of the value inside its own withLock sees the value as withLock found it, and waits for nothing")
    func readInsideOwnWithLock() {
        let count = Shared(value: 1)
        count.withLock { $0 += count.wrappedValue }
        #expect(count.wrappedValue == 2)

        // A part of the value reads through the same box.
        let syncUp = Shared(value: SyncUp(id: 1, title: "Design"))
        let title = syncUp.title
        syncUp.withLock { $0.notes = "about " + title.wrappedValue }
        #expect(syncUp.wrappedValue.notes == "about Design")
    }

    @Test("A write through the value inside its own withLock is reported at once and not applied")
    func writeInsideOwnWithLock() {
        let count = Shared(value: 1)
        withKnownIssue {
            count.withLock { value in
                value += 1
                count.wrappedValue = 100
            }
        } matching: { issue in
            issue.description.contains("changed inside its own withLock")
        }
        #expect(count.wrappedValue == 2)
    }

    @Test("withLock calls from several tasks, each reading inside its closure, neither hang nor lose a write")
    func readsInsideWithLockFromManyTasks() async {
        let count = Shared(value: 0)
        // Four tasks: each runs its loop without suspending, and under Thread Sanitizer more of
        // them hold the cooperative pool's threads long enough to stall the tests beside them.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        count.withLock { $0 = count.wrappedValue + 1 }
                    }
                }
            }
        }
        #expect(count.wrappedValue == 400)
    }

    @Test("Equatable compares values; Codable writes and reads the value alone")
    func equatableAndCodable() throws {
        let a = Shared(value: SyncUp(id: 1, title: "Design"))
        let b = Shared(value: SyncUp(id: 1, title: "Design"))
        #expect(a == b)
        b.withLock { $0.notes = "changed" }
        #expect(a != b)

        let data = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(SyncUp.self, from: data) == a.wrappedValue)
        let decoded = try JSONDecoder().decode(Shared<SyncUp>.self, from: data)
        #expect(decoded == a && !decoded.sharesStorage(with: a))
    }

    @MainActor
    @Test("a store's reducer writes a row through the detail, and the list reads it")
    func storeWritesThroughTheDetail() async {
        let store = Store(
            state: AppState(syncUps: Shared(value: [SyncUp(id: 1, title: "Design")])),
            reducer: appReducer
        )
        await store.dispatch(.open(id: 1))
        await store.dispatch(.rename("Engineering"))
        #expect(store.state.syncUps[id: 1]?.title == "Engineering")
        #expect(store.state.detail?.syncUp.title == "Engineering")
    }

    @MainActor
    @Test("a view that reads a shared value is updated by a write outside the reducer, and a view of another value is not")
    func viewsObserveEachSharedValue() async {
        let syncUp = Shared(value: SyncUp(id: 1, title: "Design"))
        let store = Store(state: AppState(syncUps: Shared(value: []), detail: Detail(syncUp: syncUp)), reducer: appReducer)
        let title = ChangeSignal { _ = store.detail?.syncUp.title }
        let list = ChangeSignal { _ = store.syncUps }
        let editing = ChangeSignal { _ = store.detail?.isEditing }

        // A middleware, or another store, writes the sync-up: the detail's view is updated.
        syncUp.withLock { $0.title = "Engineering" }
        await title.wait()
        #expect(!list.hasFired)
        #expect(!editing.hasFired)
        #expect(store.detail?.syncUp.title == "Engineering")
    }

    @MainActor
    @Test("a view that reads a shared value is updated when the store's reducer writes it through another holder")
    func viewsSeeTheReducersWrite() async {
        let syncUps = Shared(value: IdentifiedArrayOf<SyncUp>(uniqueElements: [SyncUp(id: 1, title: "Design")]))
        let store = Store(state: AppState(syncUps: syncUps), reducer: appReducer)
        await store.dispatch(.open(id: 1))
        let list = ChangeSignal { _ = store.syncUps[id: 1]?.title }
        await store.dispatch(.rename("Engineering"))
        await list.wait()
        #expect(store.syncUps[id: 1]?.title == "Engineering")
    }
}
