import Foundation
import LockstepCombine
import LockstepTesting

// The scoreboard of a Combine-based Redux app, written as such an app writes it: actions as
// values of a protocol, effects as publisher pipelines. The Swift 6 adaptations: the action
// protocol and the API are `Sendable`, and the API is a task-local instead of a `static var`.

protocol ScoreboardAction: Sendable {}

enum Scoreboard {
    typealias Action = any ScoreboardAction

    struct State: Equatable, Sendable {
        var home = 0
        var away = 0
    }

    struct HomeScore: ScoreboardAction {}
    struct AwayScore: ScoreboardAction {}
    struct ResetScore: ScoreboardAction {}
    struct PostScore: ScoreboardAction {
        let home: String
        let away: String
    }
    struct PostScoreSuccess: ScoreboardAction {}
    struct PostScoreError: ScoreboardAction {}

    static func reducer(state: State, action: Action) -> State {
        switch action {
        case _ as HomeScore:
            return State(home: state.home + 1, away: state.away)
        case _ as AwayScore:
            return State(home: state.home, away: state.away + 1)
        case _ as ResetScore:
            return State(home: 0, away: 0)
        default:
            return state
        }
    }

    static let getHomeScoreString = createSelector({ (state: State) in state.home }, transformation: { score in String(score) })
    static let getAwayScoreString = createSelector({ (state: State) in state.away }, transformation: { score in String(score) })

    // Effect Definition

    static let postScore = Effect(dispatch: true) { actions in
        actions
            .ofType(PostScore.self)
            .flatMap(getPostAPI)
            .eraseToAnyPublisher()
    }

    // API Management

    @TaskLocal static var apiManager: any ScoreAPIManager = UnreachableScoreAPIManager()

    static func getPostAPI(action: PostScore) -> AnyPublisher<Action, Never> {
        return apiManager.postScore(home: action.home, away: action.away)
            .map({ _ in PostScoreSuccess() })
            .replaceError(with: PostScoreError())
            .eraseToAnyPublisher()
    }
}

protocol ScoreAPIManager: Sendable {
    func postScore(home: String, away: String) -> AnyPublisher<Data, URLError>
}

/// The API of an app with no network: every post fails.
struct UnreachableScoreAPIManager: ScoreAPIManager {
    func postScore(home: String, away: String) -> AnyPublisher<Data, URLError> {
        Fail(outputType: Data.self, failure: URLError(.notConnectedToInternet)).eraseToAnyPublisher()
    }
}

// API Mocks

final class MockSuccessScoreAPIManager: ScoreAPIManager {
    func postScore(home: String, away: String) -> AnyPublisher<Data, URLError> {
        return Just(Data()).setFailureType(to: URLError.self).eraseToAnyPublisher()
    }
}

final class MockFailureScoreAPIManager: ScoreAPIManager {
    func postScore(home: String, away: String) -> AnyPublisher<Data, URLError> {
        return Fail(outputType: Data.self, failure: URLError(.badURL)).eraseToAnyPublisher()
    }
}

/// What a Combine subscriber received, for a test to await: `values(count:)` returns once that
/// many values have arrived, whether before or after the call.
final class Received<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []
    }

    private let state = Lock(State())

    func append(_ value: Value) {
        let ready = state.withLock { state -> [(CheckedContinuation<[Value], Never>, [Value])] in
            state.values.append(value)
            let values = state.values
            let ready = state.waiters.filter { $0.count <= values.count }
            state.waiters.removeAll { $0.count <= values.count }
            return ready.map { ($0.continuation, values) }
        }
        for (continuation, values) in ready {
            continuation.resume(returning: values)
        }
    }

    /// The values received so far.
    var values: [Value] {
        state.withLock { $0.values }
    }

    /// Returns the values received, once there are at least `count`.
    func values(count: Int) async -> [Value] {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> [Value]? in
                if state.values.count >= count { return state.values }
                state.waiters.append((count, continuation))
                return nil
            }
            if let now {
                continuation.resume(returning: now)
            }
        }
    }
}
