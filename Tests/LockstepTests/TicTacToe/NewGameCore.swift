import Lockstep

struct NewGameState: Equatable, Sendable {
    var game: GameState?
    var oPlayerName = ""
    var xPlayerName = ""
}

enum NewGameAction: Equatable, Sendable {
    case game(PresentationAction<GameAction>)
    case letsPlayButtonTapped
    case logoutButtonTapped
    case oPlayerNameChanged(String)
    case xPlayerNameChanged(String)

    var game: PresentationAction<GameAction>? {
        if case .game(let action) = self { action } else { nil }
    }
}

let newGameFeature = Feature<NewGameState, NewGameAction, Void>(
    reducer: { state, action in
        switch action {
        case .game, .logoutButtonTapped:
            break
        case .letsPlayButtonTapped:
            state.game = GameState(oPlayerName: state.oPlayerName, xPlayerName: state.xPlayerName)
        case .oPlayerNameChanged(let name):
            state.oPlayerName = name
        case .xPlayerNameChanged(let name):
            state.xPlayerName = name
        }
    }
)
.ifLet(state: \.game, action: { $0.game }, embed: NewGameAction.game) { gameFeature }
