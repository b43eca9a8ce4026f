// The code of the article "Sharing state" (Sources/Lockstep/Documentation.docc/SharingState.md),
// compiled and tested; SnippetTests checks that the article quotes it.
import Foundation
import IdentifiedCollections
import Lockstep
import LockstepPersistence
import LockstepTesting
import Testing

enum SharingStateArticle {
    struct SyncUp: Equatable, Identifiable, Codable, Sendable {
        let id: Int
        var title: String
        var attendees: [String] = []
    }

    struct SyncUpsList: Equatable, Sendable {
        @Shared var syncUps: IdentifiedArrayOf<SyncUp>
    }

    struct SyncUpDetail: Equatable, Sendable {
        @Shared var syncUp: SyncUp
        var isEditing = false
    }

    struct AppState: Equatable, Sendable {
        var list: SyncUpsList
        var detail: SyncUpDetail?
    }

    enum AppAction: Equatable, Sendable {
        case syncUpTapped(id: Int)
        case titleChanged(String)
        case inviteTapped(String)
        case invited(String)
    }

    static func appReducer(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .syncUpTapped(let id):
            guard let syncUp = Shared(state.list.$syncUps[id: id]) else { return }
            state.detail = SyncUpDetail(syncUp: syncUp)
        case .titleChanged(let title):
            state.detail?.syncUp.title = title
        case .inviteTapped, .invited:
            break
        }
    }

    static let inviteMiddleware: PlainMiddleware<AppState, AppAction> = { state, action, dispatch in
        guard case .inviteTapped(let name) = action, let detail = state.detail else { return }
        // …after the server accepted the invitation:
        detail.$syncUp.withLock { $0.attendees.append(name) }
        await dispatch(.invited(name))
    }

    @MainActor
    static func makeStore(persisted: PersistedState<IdentifiedArrayOf<SyncUp>>) async throws -> Store<AppState, AppAction> {
        let syncUps = try await persisted.load() ?? []
        return Store(
            state: AppState(list: SyncUpsList(syncUps: Shared(value: syncUps))),
            reducer: appReducer,
            middlewares: [inviteMiddleware, persistMiddleware(\AppState.list.syncUps, to: persisted)]
        )
    }
}

@MainActor
@Suite("Sharing state article")
struct SharingStateArticleTests {
    typealias SyncUp = SharingStateArticle.SyncUp

    func makeTestStore() -> TestStore<SharingStateArticle.AppState, SharingStateArticle.AppAction> {
        let design = SyncUp(id: 1, title: "Design")
        return TestStore(
            state: SharingStateArticle.AppState(list: SharingStateArticle.SyncUpsList(syncUps: Shared(value: [design]))),
            reducer: SharingStateArticle.appReducer,
            middlewares: [SharingStateArticle.inviteMiddleware]
        )
    }

    @Test("the detail writes the row the list shows, and the test asserts it once")
    func detailWritesTheListsRow() async {
        let store = makeTestStore()
        await store.send(.syncUpTapped(id: 1)) {
            $0.detail = SharingStateArticle.SyncUpDetail(syncUp: Shared(value: SyncUp(id: 1, title: "Design")))
        }
        await store.send(.titleChanged("Engineering")) {
            $0.detail?.syncUp.title = "Engineering"
        }
        #expect(store.state.list.syncUps[id: 1]?.title == "Engineering")
    }

    @Test("a middleware's write is asserted with the action it sends next")
    func middlewareWrite() async {
        let store = makeTestStore()
        await store.send(.syncUpTapped(id: 1)) {
            $0.detail = SharingStateArticle.SyncUpDetail(syncUp: Shared(value: SyncUp(id: 1, title: "Design")))
        }
        await store.send(.inviteTapped("Blob"))
        await store.receive(.invited("Blob")) {
            $0.list.syncUps[id: 1]?.attendees = ["Blob"]
        }
    }

    @Test("a shared value kept in a file is saved after an action that changed it through any holder")
    func persistedSharedValue() async throws {
        let storage = InMemoryStorage(try JSONEncoder().encode(IdentifiedArrayOf<SyncUp>(uniqueElements: [SyncUp(id: 1, title: "Design")])))
        let store = try await SharingStateArticle.makeStore(persisted: PersistedState(storage: storage))
        await store.dispatch(.syncUpTapped(id: 1))
        await store.dispatch(.titleChanged("Engineering"))
        let saved = try JSONDecoder().decode(IdentifiedArrayOf<SyncUp>.self, from: try #require(storage.data))
        #expect(saved[id: 1]?.title == "Engineering")
        #expect(storage.saveCount == 1)
    }
}

// MARK: Named by a key

struct MuteSettings: Equatable, Sendable {
    @Shared(.inMemory("isMuted")) var isMuted = false
}

struct MutePlayer: Equatable, Sendable {
    @Shared(.inMemory("isMuted")) var isMuted = false
}

extension SharedKey where Self == FileStorageKey<[String]>.Default {
    static var favorites: Self {
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        return Self[.fileStorage(documents.appending(component: "favorites.json")), default: []]
    }
}

struct FavoritesList: Equatable, Sendable {
    @Shared(.favorites) var favorites
}

@Suite("Sharing state article: keys")
struct SharingStateKeysArticleTests {
    @Test func twoFeaturesThatNameOneKeyShareItsValue() {
        let settings = MuteSettings()
        let player = MutePlayer()
        settings.isMuted = true
        #expect(player.isMuted)
    }

    @Test func aFileKeyStartsFromItsDefaultUnderATest() {
        let list = FavoritesList()
        #expect(list.favorites.isEmpty)
        list.$favorites.withLock { $0.append("Dune") }
        #expect(FavoritesList().favorites == ["Dune"])
    }
}
