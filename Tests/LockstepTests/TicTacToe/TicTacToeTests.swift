import Lockstep
import LockstepTesting
import Testing

// TCA's TicTacToe tests, adapted: a client of closures instead of `withDependencies`, a `Gate`
// instead of a sleeping client, and one `TestStore` per feature, made from the feature alone.

extension AuthenticationClient {
    static func answering(
        login: AuthenticationResponse, twoFactor: AuthenticationResponse? = nil, twoFactorGate: Gate? = nil
    ) -> AuthenticationClient {
        AuthenticationClient(
            login: { _ in .success(login) },
            twoFactor: { _ in
                await twoFactorGate?.pass()
                return twoFactor.map { .success($0) } ?? .failure(.invalidTwoFactor)
            })
    }
}

@MainActor
@Suite("TicTacToe: Login")
struct LoginCoreTests {
    @Test("login with two factor, then the two-factor screen's submission")
    func flowSuccessTwoFactorIntegration() async {
        let store = TestStore(
            state: LoginState(), feature: loginFeature,
            services: .answering(
                login: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true),
                twoFactor: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: false)))
        await store.send(.view(.emailChanged("2fa@pointfree.co"))) {
            $0.email = "2fa@pointfree.co"
        }
        await store.send(.view(.passwordChanged("password"))) {
            $0.password = "password"
            $0.isFormValid = true
        }
        await store.send(.view(.loginButtonTapped)) {
            $0.isLoginRequestInFlight = true
        }
        await store.receive(.loginResponse(.success(AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true)))) {
            $0.isLoginRequestInFlight = false
            $0.twoFactor = TwoFactorState(token: "deadbeefdeadbeef")
        }
        await store.send(.twoFactor(.presented(.codeChanged("1234")))) {
            $0.twoFactor?.code = "1234"
            $0.twoFactor?.isFormValid = true
        }
        await store.send(.twoFactor(.presented(.submitButtonTapped))) {
            $0.twoFactor?.isTwoFactorRequestInFlight = true
        }
        await store.receive(
            .twoFactor(.presented(.twoFactorResponse(.success(AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: false)))))
        ) {
            $0.twoFactor?.isTwoFactorRequestInFlight = false
        }
    }

    @Test("dismissing the two-factor screen early cancels its request")
    func flowDismissEarlyTwoFactorIntegration() async {
        let server = Gate(name: "two-factor server")
        let store = TestStore(
            state: LoginState(), feature: loginFeature,
            services: .answering(
                login: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true),
                twoFactor: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: false),
                twoFactorGate: server))
        await store.send(.view(.emailChanged("2fa@pointfree.co"))) {
            $0.email = "2fa@pointfree.co"
        }
        await store.send(.view(.passwordChanged("password"))) {
            $0.password = "password"
            $0.isFormValid = true
        }
        await store.send(.view(.loginButtonTapped)) {
            $0.isLoginRequestInFlight = true
        }
        await store.receive(.loginResponse(.success(AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true)))) {
            $0.isLoginRequestInFlight = false
            $0.twoFactor = TwoFactorState(token: "deadbeefdeadbeef")
        }
        await store.send(.twoFactor(.presented(.codeChanged("1234")))) {
            $0.twoFactor?.code = "1234"
            $0.twoFactor?.isFormValid = true
        }
        await store.send(.twoFactor(.presented(.submitButtonTapped))) {
            $0.twoFactor?.isTwoFactorRequestInFlight = true
        }
        #expect(server.waitingCount == 1)
        await store.send(.twoFactor(.dismiss)) {
            $0.twoFactor = nil
        }
        await store.finish()
    }
}

@MainActor
@Suite("TicTacToe: TwoFactor")
struct TwoFactorCoreTests {
    @Test("a code of four digits submits, and the response ends the request")
    func flowSuccess() async {
        let store = TestStore(
            state: TwoFactorState(token: "deadbeefdeadbeef"), feature: twoFactorFeature,
            services: .answering(
                login: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true),
                twoFactor: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: false)))
        await store.send(.codeChanged("1")) { $0.code = "1" }
        await store.send(.codeChanged("12")) { $0.code = "12" }
        await store.send(.codeChanged("123")) { $0.code = "123" }
        await store.send(.codeChanged("1234")) {
            $0.code = "1234"
            $0.isFormValid = true
        }
        await store.send(.submitButtonTapped) { $0.isTwoFactorRequestInFlight = true }
        await store.receive(.twoFactorResponse(.success(AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: false)))) {
            $0.isTwoFactorRequestInFlight = false
        }
    }

    @Test("a rejected code shows an alert, which closes when dismissed")
    func flowFailure() async {
        let store = TestStore(
            state: TwoFactorState(token: "deadbeefdeadbeef"), feature: twoFactorFeature,
            services: .answering(login: AuthenticationResponse(token: "deadbeefdeadbeef", twoFactorRequired: true)))
        await store.send(.codeChanged("1234")) {
            $0.code = "1234"
            $0.isFormValid = true
        }
        await store.send(.submitButtonTapped) { $0.isTwoFactorRequestInFlight = true }
        await store.receive(.twoFactorResponse(.failure(.invalidTwoFactor))) {
            $0.alert = AlertState { "Invalid code" }
            $0.isTwoFactorRequestInFlight = false
        }
        await store.send(.alert(.dismiss)) { $0.alert = nil }
    }
}

@MainActor
@Suite("TicTacToe: Game and NewGame")
struct GameCoreTests {
    @Test("x wins, and a win stops the game")
    func winFlow() async {
        let store = TestStore(state: GameState(oPlayerName: "Blob Jr.", xPlayerName: "Blob Sr."), feature: gameFeature)
        await store.send(.cellTapped(row: 0, column: 0)) {
            $0.board[0][0] = .x
            $0.currentPlayer = .o
        }
        await store.send(.cellTapped(row: 2, column: 1)) {
            $0.board[2][1] = .o
            $0.currentPlayer = .x
        }
        await store.send(.cellTapped(row: 1, column: 0)) {
            $0.board[1][0] = .x
            $0.currentPlayer = .o
        }
        await store.send(.cellTapped(row: 1, column: 1)) {
            $0.board[1][1] = .o
            $0.currentPlayer = .x
        }
        await store.send(.cellTapped(row: 2, column: 0)) {
            $0.board[2][0] = .x
        }
        #expect(store.state.board.hasWin(.x))
        await store.send(.cellTapped(row: 2, column: 2))
    }

    @Test("a full board with no winner is a tie, and play again starts over")
    func tieFlow() async {
        let store = TestStore(state: GameState(oPlayerName: "Blob Jr.", xPlayerName: "Blob Sr."), feature: gameFeature)
        store.exhaustivity = .off
        for (row, column) in [(0, 0), (1, 1), (2, 2), (0, 1), (2, 1), (2, 0), (0, 2), (1, 2), (1, 0)] {
            await store.send(.cellTapped(row: row, column: column))
        }
        #expect(store.state.board.isFilled)
        #expect(!store.state.board.hasWinner)
        store.exhaustivity = .on
        await store.send(.playAgainButtonTapped) {
            $0 = GameState(oPlayerName: "Blob Jr.", xPlayerName: "Blob Sr.")
        }
    }

    @Test("let's play presents the game, whose quit button dismisses it")
    func newGamePresentsAndQuits() async {
        let store = TestStore(state: NewGameState(), feature: newGameFeature)
        await store.send(.xPlayerNameChanged("Blob Sr.")) { $0.xPlayerName = "Blob Sr." }
        await store.send(.oPlayerNameChanged("Blob Jr.")) { $0.oPlayerName = "Blob Jr." }
        await store.send(.letsPlayButtonTapped) {
            $0.game = GameState(oPlayerName: "Blob Jr.", xPlayerName: "Blob Sr.")
        }
        await store.send(.game(.presented(.quitButtonTapped)))
        await store.receive(.game(.dismiss)) { $0.game = nil }
    }
}

@MainActor
@Suite("TicTacToe: App")
struct AppCoreTests {
    @Test("a login without two factor switches to a new game, and no issue is reported")
    func integration() async {
        let store = TestStore(
            state: TicTacToeState.login(LoginState()), feature: ticTacToeFeature,
            services: TicTacToeServices(
                authentication: .answering(login: AuthenticationResponse(token: "deadbeef", twoFactorRequired: false))))
        await store.send(.login(.view(.emailChanged("blob@pointfree.co")))) {
            $0 = .login(LoginState(email: "blob@pointfree.co"))
        }
        await store.send(.login(.view(.passwordChanged("bl0bbl0b")))) {
            $0 = .login(LoginState(email: "blob@pointfree.co", isFormValid: true, password: "bl0bbl0b"))
        }
        await store.send(.login(.view(.loginButtonTapped))) {
            $0 = .login(
                LoginState(email: "blob@pointfree.co", isFormValid: true, isLoginRequestInFlight: true, password: "bl0bbl0b"))
        }
        await store.receive(.login(.loginResponse(.success(AuthenticationResponse(token: "deadbeef", twoFactorRequired: false))))) {
            $0 = .newGame(NewGameState())
        }
        await store.send(.newGame(.oPlayerNameChanged("Blob Sr."))) {
            $0 = .newGame(NewGameState(oPlayerName: "Blob Sr."))
        }
        await store.send(.newGame(.logoutButtonTapped)) {
            $0 = .login(LoginState())
        }
    }

    @Test("a login with two factor switches to a new game after the code, and no issue is reported")
    func integrationTwoFactor() async {
        let store = TestStore(
            state: TicTacToeState.login(LoginState()), feature: ticTacToeFeature,
            services: TicTacToeServices(
                authentication: .answering(
                    login: AuthenticationResponse(token: "deadbeef", twoFactorRequired: true),
                    twoFactor: AuthenticationResponse(token: "deadbeef", twoFactorRequired: false))))
        await store.send(.login(.view(.emailChanged("blob@pointfree.co")))) {
            $0 = .login(LoginState(email: "blob@pointfree.co"))
        }
        await store.send(.login(.view(.passwordChanged("bl0bbl0b")))) {
            $0 = .login(LoginState(email: "blob@pointfree.co", isFormValid: true, password: "bl0bbl0b"))
        }
        await store.send(.login(.view(.loginButtonTapped))) {
            $0 = .login(
                LoginState(email: "blob@pointfree.co", isFormValid: true, isLoginRequestInFlight: true, password: "bl0bbl0b"))
        }
        await store.receive(.login(.loginResponse(.success(AuthenticationResponse(token: "deadbeef", twoFactorRequired: true))))) {
            $0 = .login(
                LoginState(
                    email: "blob@pointfree.co", isFormValid: true, password: "bl0bbl0b",
                    twoFactor: TwoFactorState(token: "deadbeef")))
        }
        await store.send(.login(.twoFactor(.presented(.codeChanged("1234"))))) {
            $0 = .login(
                LoginState(
                    email: "blob@pointfree.co", isFormValid: true, password: "bl0bbl0b",
                    twoFactor: TwoFactorState(code: "1234", isFormValid: true, token: "deadbeef")))
        }
        await store.send(.login(.twoFactor(.presented(.submitButtonTapped)))) {
            $0 = .login(
                LoginState(
                    email: "blob@pointfree.co", isFormValid: true, password: "bl0bbl0b",
                    twoFactor: TwoFactorState(
                        code: "1234", isFormValid: true, isTwoFactorRequestInFlight: true, token: "deadbeef")))
        }
        await store.receive(
            .login(.twoFactor(.presented(.twoFactorResponse(.success(AuthenticationResponse(token: "deadbeef", twoFactorRequired: false))))))
        ) {
            $0 = .newGame(NewGameState())
        }
    }
}

private enum Screen: Equatable, Sendable {
    case signIn
    case home

    var signIn: Void? { self == .signIn ? () : nil }
}

private enum ScreenAction: Equatable, Sendable {
    case signIn(Bool)

    var signIn: Bool? {
        if case .signIn(let succeeded) = self { succeeded } else { nil }
    }
}

@Suite("Case lifts on an actor store")
struct CaseLiftActorStoreTests {
    @Test("The first action, handled in its case and answered by a switch to another case, reports nothing")
    func firstActionSwitchesTheCase() async {
        let calls = CallRecorder<Bool>()
        let store = ActorStore(
            state: Screen.signIn,
            reducer: { (state: inout Screen, action: ScreenAction) in
                if case .signIn(true) = action { state = .home }
            }
        ) {
            scopeMiddleware(
                { (_: Void, succeeded: Bool, _: Dispatcher<Bool>) in calls.record(succeeded) },
                case: { $0.signIn }, action: { $0.signIn }, embed: ScreenAction.signIn)
        }
        // The sign-in case was there before the first action: its side effects skip the action
        // that closed it, and nothing is reported as late.
        await store.dispatch(.signIn(true))
        #expect(await store.state == .home)
        #expect(calls.count == 0)
    }
}

@Suite("TicTacToe on an actor store")
struct TicTacToeActorStoreTests {
    @Test("The first action, a login that switches the app to a new game, reports nothing on an actor store either")
    func firstActionSwitchesTheCase() async {
        let store = ActorStore(
            state: TicTacToeState.login(LoginState()), feature: ticTacToeFeature,
            services: TicTacToeServices(
                authentication: .answering(login: AuthenticationResponse(token: "deadbeef", twoFactorRequired: false))))
        // Login's reducer handles its response, then the app's switches to a new game, in the
        // first reduction: the login case was there before it, so nothing arrived late.
        await store.dispatch(.login(.loginResponse(.success(AuthenticationResponse(token: "deadbeef", twoFactorRequired: false)))))
        #expect(await store.state == .newGame(NewGameState()))
    }
}
