import Lockstep

enum TicTacToeState: Equatable, Sendable {
    case login(LoginState)
    case newGame(NewGameState)

    var login: LoginState? {
        if case .login(let state) = self { state } else { nil }
    }
    var newGame: NewGameState? {
        if case .newGame(let state) = self { state } else { nil }
    }
}

enum TicTacToeAction: Equatable, Sendable {
    case login(LoginAction)
    case newGame(NewGameAction)

    var login: LoginAction? {
        if case .login(let action) = self { action } else { nil }
    }
    var newGame: NewGameAction? {
        if case .newGame(let action) = self { action } else { nil }
    }
}

/// The app's services: each feature takes the part it calls.
struct TicTacToeServices: Sendable {
    var authentication: AuthenticationClient
}

let ticTacToeFeature = Feature<TicTacToeState, TicTacToeAction, TicTacToeServices>(
    reducer: { state, action in
        switch action {
        case .login(.twoFactor(.presented(.twoFactorResponse(.success)))):
            state = .newGame(NewGameState())
        case .login(.loginResponse(.success(let response))) where !response.twoFactorRequired:
            state = .newGame(NewGameState())
        case .login:
            break
        case .newGame(.logoutButtonTapped):
            state = .login(LoginState())
        case .newGame:
            break
        }
    }
)
.ifCaseLet(
    case: { $0.login }, embed: TicTacToeState.login, action: { $0.login }, embedAction: TicTacToeAction.login,
    services: \.authentication
) { loginFeature }
.ifCaseLet(
    case: { $0.newGame }, embed: TicTacToeState.newGame, action: { $0.newGame }, embedAction: TicTacToeAction.newGame
) { newGameFeature }
