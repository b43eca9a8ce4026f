import Lockstep

enum Player: Equatable, Sendable {
    case o
    case x

    mutating func toggle() {
        self = self == .o ? .x : .o
    }
}

struct GameState: Equatable, Sendable {
    var board: [[Player?]] = Array(repeating: Array(repeating: nil, count: 3), count: 3)
    var currentPlayer: Player = .x
    let oPlayerName: String
    let xPlayerName: String

    var currentPlayerName: String { currentPlayer == .o ? oPlayerName : xPlayerName }
}

enum GameAction: Equatable, Sendable {
    case cellTapped(row: Int, column: Int)
    case playAgainButtonTapped
    case quitButtonTapped
}

extension [[Player?]] {
    var isFilled: Bool { allSatisfy { $0.allSatisfy { $0 != nil } } }

    func hasWin(_ player: Player) -> Bool {
        let lines = [
            [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [6, 4, 2],
        ]
        return lines.contains { line in line.allSatisfy { self[$0 % 3][$0 / 3] == player } }
    }

    var hasWinner: Bool { hasWin(.x) || hasWin(.o) }
}

/// Game needs no services: it joins a feature that has some as it is.
let gameFeature = Feature<GameState, GameAction, Void>(
    reducer: { state, action in
        switch action {
        case .cellTapped(let row, let column):
            guard state.board[row][column] == nil, !state.board.hasWinner else { return }
            state.board[row][column] = state.currentPlayer
            if !state.board.hasWinner {
                state.currentPlayer.toggle()
            }
        case .playAgainButtonTapped:
            state = GameState(oPlayerName: state.oPlayerName, xPlayerName: state.xPlayerName)
        case .quitButtonTapped:
            break
        }
    }
) {
    { _, action, dispatch in
        guard action == .quitButtonTapped else { return }
        await dispatch.dismiss()
    } as PlainMiddleware<GameState, GameAction>
}
