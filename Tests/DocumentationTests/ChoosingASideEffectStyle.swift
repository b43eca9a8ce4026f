// The code of the article "Choosing a side-effect style" (Sources/Lockstep/Documentation.docc/
// ChoosingASideEffectStyle.md). The article quotes it; SnippetTests checks that it still does.
import Lockstep
import LockstepTesting
import Observation
import Testing

// MARK: - The feature

struct QuoteState: Equatable, Sendable {
    var isLoading = false
    var quote: String?
    var errorMessage: String?
}

enum QuoteAction: Equatable, Sendable {
    case refreshTapped
    case quoteLoaded(Result<String, QuoteError>)
}

struct QuoteError: Error, Equatable, Sendable {}

struct QuoteService: Sendable {
    var fetchQuote: @Sendable () async throws -> String
}

let quoteReducer: InPlaceReducer<QuoteState, QuoteAction> = { state, action in
    switch action {
    case .refreshTapped:
        state.isLoading = true
        state.errorMessage = nil
    case .quoteLoaded(.success(let quote)):
        state.isLoading = false
        state.quote = quote
    case .quoteLoaded(.failure):
        state.isLoading = false
        state.errorMessage = "No quote today."
    }
}

// MARK: - Style 1: middleware

func quoteMiddleware(
    state: QuoteState,
    action: QuoteAction,
    services: QuoteService,
    dispatch: Dispatcher<QuoteAction>
) async {
    guard action == .refreshTapped else { return }
    do {
        let quote = try await services.fetchQuote()
        await dispatch(.quoteLoaded(.success(quote)))
    } catch {
        await dispatch(.quoteLoaded(.failure(QuoteError())))
    }
}

// MARK: - Style 2: an effect stream

func quoteEffect(service: QuoteService) -> Effect<QuoteAction> {
    Effect { actions in
        actions
            .filter { $0 == .refreshTapped }
            .map { _ -> QuoteAction in
                do {
                    return .quoteLoaded(.success(try await service.fetchQuote()))
                } catch {
                    return .quoteLoaded(.failure(QuoteError()))
                }
            }
    }
}

// MARK: - Style 3: an effect runner and one entry point

@MainActor
@Observable
final class QuoteViewModel {
    enum Effect: Sendable {
        case fetchQuote
    }

    enum When: Sendable {
        case userTapsRefresh
        case quoteArrives(String)
        case quoteFails
    }

    private(set) var isLoading = false
    private(set) var quote: String?
    private(set) var errorMessage: String?
    @ObservationIgnored let effects: EffectRunner<Effect, When>

    init(effectHandler: @escaping EffectHandler<Effect, When>) {
        effects = EffectRunner(handler: effectHandler)
    }

    func handle(_ when: When) throws {
        switch when {
        case .userTapsRefresh:
            isLoading = true
            errorMessage = nil
            effects.trigger(.fetchQuote) { [weak self] completion in
                try self?.handle(completion)
            }
        case .quoteArrives(let quote):
            guard isLoading else { throw InvalidStateError(event: when, state: "isLoading == false") }
            isLoading = false
            self.quote = quote
        case .quoteFails:
            guard isLoading else { throw InvalidStateError(event: when, state: "isLoading == false") }
            isLoading = false
            errorMessage = "No quote today."
        }
    }

    static func effectHandler(service: QuoteService) -> EffectHandler<Effect, When> {
        { effect in
            switch effect {
            case .fetchQuote:
                do {
                    return .quoteArrives(try await service.fetchQuote())
                } catch {
                    return .quoteFails
                }
            }
        }
    }
}

// MARK: - Mixing the styles in one store

actor AnalyticsLog {
    private(set) var events: [String] = []

    func record(_ event: String) {
        events.append(event)
    }
}

func analyticsEffect(log: AnalyticsLog) -> Effect<QuoteAction> {
    Effect(dispatch: false) { actions in
        actions.map { action in
            await log.record("\(action)")
            return action
        }
    }
}

@MainActor
func makeQuoteStore(service: QuoteService, log: AnalyticsLog) -> Store<QuoteState, QuoteAction> {
    Store(
        state: QuoteState(),
        reducer: quoteReducer,
        services: service,
        middlewares: [quoteMiddleware],
        effects: [analyticsEffect(log: log)]
    )
}

// MARK: - Tests

@MainActor
@Suite("Choosing a side-effect style")
struct ChoosingASideEffectStyleTests {
    static let service = QuoteService(fetchQuote: { "Simplicity is prerequisite for reliability." })

    @Test func middlewareLoadsTheQuote() async {
        let store = TestStore(
            state: QuoteState(),
            reducer: quoteReducer,
            services: Self.service,
            middlewares: [quoteMiddleware]
        )

        await store.send(.refreshTapped) { $0.isLoading = true }
        await store.receive(.quoteLoaded(.success("Simplicity is prerequisite for reliability."))) {
            $0.isLoading = false
            $0.quote = "Simplicity is prerequisite for reliability."
        }
    }

    @Test func effectLoadsTheQuote() async {
        let store = TestStore(
            state: QuoteState(),
            reducer: quoteReducer,
            effects: [quoteEffect(service: Self.service)]
        )

        await store.send(.refreshTapped) { $0.isLoading = true }
        await store.receive(.quoteLoaded(.success("Simplicity is prerequisite for reliability."))) {
            $0.isLoading = false
            $0.quote = "Simplicity is prerequisite for reliability."
        }
    }

    @Test func effectRunnerLoadsTheQuote() async throws {
        let model = QuoteViewModel(effectHandler: QuoteViewModel.effectHandler(service: Self.service))

        try model.handle(.userTapsRefresh)
        #expect(model.isLoading)

        await model.effects.waitUntilIdle()
        #expect(model.quote == "Simplicity is prerequisite for reliability.")
        #expect(model.isLoading == false)
    }

    @Test func middlewareAndEffectShareOneDispatch() async {
        let log = AnalyticsLog()
        let store = makeQuoteStore(service: Self.service, log: log)

        await store.dispatch(.refreshTapped)

        #expect(store.quote == "Simplicity is prerequisite for reliability.")
        #expect(await log.events.count == 2)
    }
}
