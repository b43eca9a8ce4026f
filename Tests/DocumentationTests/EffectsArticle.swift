// The enum-action effect of the article "Effects" (Sources/Lockstep/Documentation.docc/Effects.md),
// which quotes it, and its test. The article's scoreboard effect is LockstepTests' Scoreboard.
import Lockstep
import Testing

enum EffectsArticle {
    enum AppAction: Equatable, Sendable {
        case search(String)
        case results([String])

        var search: String? {
            if case .search(let query) = self { query } else { nil }
        }
    }

    struct SearchAPI: Sendable {
        var search: @Sendable (_ query: String) async -> [String]
    }

    static func searchEffect(searchAPI: SearchAPI) -> Effect<AppAction> {
        Effect<AppAction> { actions in
            actions
                .ofCase(\AppAction.search)          // var search: String? { ... }
                .map { query in AppAction.results(await searchAPI.search(query)) }
        }
    }
}

@MainActor
@Suite("The effects article")
struct EffectsArticleTests {
    @Test("The search effect answers each search action with its results")
    func searchEffectAnswers() async {
        let api = EffectsArticle.SearchAPI(search: { query in [query.uppercased()] })
        let store = Store(
            state: [String](),
            reducer: { (state: [String], action: EffectsArticle.AppAction) in
                if case .results(let results) = action { results } else { state }
            },
            effects: [EffectsArticle.searchEffect(searchAPI: api)]
        )
        await store.dispatch(.search("dune"))
        #expect(store.state == ["DUNE"])
    }
}
