import Foundation
import Lockstep
import LockstepPersistence
import LockstepTesting
import Testing

struct SyncUp: Codable, Equatable, Sendable {
    var title: String
}

struct SyncUpsState: Equatable, Sendable {
    var syncUps: [SyncUp] = []
    var selected: Int?
    var saveError: String?
}

enum SyncUpsAction: Equatable, Sendable {
    case add(String)
    case select(Int)
    case saveFailed(String)
}

let syncUpsReducer: InPlaceReducer<SyncUpsState, SyncUpsAction> = { state, action in
    switch action {
    case .add(let title): state.syncUps.append(SyncUp(title: title))
    case .select(let index): state.selected = index
    case .saveFailed(let message): state.saveError = message
    }
}

/// An in-memory storage whose saves park on `gate` first, so a test holds a write in flight.
final class GatedStorage: PersistenceStorage {
    let memory = InMemoryStorage()
    let gate: Gate

    init(gate: Gate) { self.gate = gate }

    var location: String { "gated memory" }
    func load() async throws -> Data? { try await memory.load() }
    func save(_ data: Data) async throws {
        await gate.pass()
        try await memory.save(data)
    }
}

struct BrokenDiskError: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

/// A storage whose saves fail.
final class FullStorage: PersistenceStorage {
    var location: String { "full disk" }
    func load() async throws -> Data? { nil }
    func save(_ data: Data) async throws { throw BrokenDiskError() }
}

private func decoded(_ data: Data?) -> [SyncUp]? {
    data.flatMap { try? JSONDecoder().decode([SyncUp].self, from: $0) }
}

@MainActor
@Suite("Persisted state")
struct PersistenceTests {
    @Test("The part is loaded at start and saved when an action changes it, not otherwise")
    func loadsAndSavesOnChange() async throws {
        let storage = InMemoryStorage(try JSONEncoder().encode([SyncUp(title: "Design")]))
        let persisted = PersistedState<[SyncUp]>(storage: storage)
        let store = TestStore(
            state: SyncUpsState(syncUps: try await persisted.load() ?? []), reducer: syncUpsReducer,
            middlewares: [persistMiddleware(\SyncUpsState.syncUps, to: persisted)])
        #expect(store.state.syncUps == [SyncUp(title: "Design")])

        await store.send(.add("Retro")) { $0.syncUps.append(SyncUp(title: "Retro")) }
        #expect(decoded(storage.data) == [SyncUp(title: "Design"), SyncUp(title: "Retro")])
        await store.send(.select(1)) { $0.selected = 1 }
        #expect(storage.saveCount == 1)
    }

    @Test("Saves asked for while one is written are merged: the newest value is written next")
    func savesAreCoalesced() async throws {
        let gate = Gate()
        let storage = GatedStorage(gate: gate)
        let persisted = PersistedState<[SyncUp]>(storage: storage)
        _ = try await persisted.load()

        await withTrackedWork { work in
            let first = work.start("first save") { try? await persisted.save([SyncUp(title: "A")]) }
            await work.waitUntilParked()
            let second = work.start("second save") { try? await persisted.save([SyncUp(title: "A"), SyncUp(title: "B")]) }
            let third = work.start("third save") {
                try? await persisted.save([SyncUp(title: "A"), SyncUp(title: "B"), SyncUp(title: "C")])
            }
            await work.waitUntilParked()
            #expect(storage.memory.saveCount == 0)
            gate.open()
            await first.finish()
            await second.finish()
            await third.finish()
        }

        #expect(storage.memory.saveCount == 2)
        #expect(decoded(storage.memory.data)?.map(\.title) == ["A", "B", "C"])
    }

    @Test("A file that cannot be decoded is an error naming it, and nothing is saved over it")
    func undecodableFileIsAnErrorAndIsKept() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "lockstep-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("not json".utf8).write(to: url)
        let persisted = PersistedState<[SyncUp]>(storage: FileStorage(url: url))

        await #expect(throws: PersistenceError.self) { _ = try await persisted.load() }
        do throws(PersistenceError) {
            _ = try await persisted.load()
        } catch {
            #expect(error.kind == .undecodable)
            #expect(error.description.contains(url.path))
            #expect(error.description.contains("could not be decoded"))
        }
        do throws(PersistenceError) {
            try await persisted.save([SyncUp(title: "Lost")])
            Issue.record("A save over an undecodable file was allowed")
        } catch {
            #expect(error.kind == .notLoaded)
        }
        #expect(try Data(contentsOf: url) == Data("not json".utf8))
    }

    @Test("A file storage writes the whole value and reads it back; a missing file loads nil")
    func fileRoundTrip() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "lockstep-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let persisted = PersistedState<[SyncUp]>(storage: FileStorage(url: url))
        #expect(try await persisted.load() == nil)
        try await persisted.save([SyncUp(title: "Standup")])
        let reloaded = PersistedState<[SyncUp]>(storage: FileStorage(url: url))
        #expect(try await reloaded.load() == [SyncUp(title: "Standup")])
    }

    @Test("A failed save is dispatched as the app's action when it asks for one")
    func failedSaveIsDispatched() async throws {
        let persisted = PersistedState<[SyncUp]>(storage: FullStorage())
        _ = try await persisted.load()
        let store = TestStore(
            state: SyncUpsState(), reducer: syncUpsReducer,
            middlewares: [persistMiddleware(\SyncUpsState.syncUps, to: persisted, failed: { .saveFailed($0.description) })])
        await store.send(.add("Retro")) { $0.syncUps = [SyncUp(title: "Retro")] }
        await store.receive(.saveFailed("The state could not be saved to full disk: the disk is full. The last save is still there.")) {
            $0.saveError = "The state could not be saved to full disk: the disk is full. The last save is still there."
        }
    }

    @Test("A save refused after a failed load is dispatched once, not again for the action that reports it")
    func refusedSaveIsDispatchedOnce() async throws {
        let persisted = PersistedState<[SyncUp]>(storage: InMemoryStorage(Data("not json".utf8)))
        await #expect(throws: PersistenceError.self) { _ = try await persisted.load() }
        let store = TestStore(
            state: SyncUpsState(), reducer: syncUpsReducer,
            middlewares: [persistMiddleware(\SyncUpsState.syncUps, to: persisted, failed: { .saveFailed("\($0.kind)") })])
        await store.send(.add("Retro")) { $0.syncUps = [SyncUp(title: "Retro")] }
        await store.receive(.saveFailed("notLoaded")) { $0.saveError = "notLoaded" }
        await store.send(.select(0)) { $0.selected = 0 }
        await store.send(.add("Design")) { $0.syncUps.append(SyncUp(title: "Design")) }
        await store.receive(.saveFailed("notLoaded"))
    }
}
