import Foundation
import Lockstep

/// A key of the terminal scoreboard.
public enum Key: String, Sendable, CaseIterable {
    case home = "h"
    case away = "a"
    case reset = "r"
    case post = "p"
    case quit = "q"
}

/// A line of input that is not a key.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let line: Int

    public init(text: String, line: Int) {
        self.text = text
        self.line = line
    }

    public var description: String {
        "unknown key '\(text)' on line \(line) (keys: \(Key.allCases.map(\.rawValue).joined(separator: " ")))"
    }
}

/// Reading keys, one a line.
public enum KeyReader {
    /// The key of one line, `nil` for a blank line.
    public static func key(of text: String, line: Int) throws(InputError) -> Key? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard let key = Key(rawValue: trimmed) else { throw InputError(text: trimmed, line: line) }
        return key
    }

    /// The keys of a whole script, up to and including the first `q`; what follows it is never
    /// read. Throws on the first line that is not a key, so that a bad script does nothing.
    public static func keys(of lines: [String]) throws(InputError) -> [Key] {
        var keys: [Key] = []
        for (index, text) in lines.enumerated() {
            guard let key = try key(of: text, line: index + 1) else { continue }
            keys.append(key)
            if key == .quit { break }
        }
        return keys
    }
}

/// The scoreboard's view model, for a terminal: the key handlers dispatch the scoreboard's actions,
/// and the `showAlert` effect it registers turns `PostScoreSuccess` into an alert line and a
/// `ResetScore`. The store is any `StoreProtocol`: a `Store` in the app, a `MockStore` in tests.
@MainActor
public final class ScoreboardController {
    /// Whether the alert was shown, and its last line.
    public private(set) var showAlert = false
    public private(set) var alertMessage: String?
    /// How many posts failed.
    public private(set) var failedPosts = 0

    private let store: any StoreProtocol<Scoreboard.State, any ScoreboardAction>
    private let write: @MainActor (String) -> Void
    private let writeError: @MainActor (String) -> Void
    private var registrations: Set<EffectRegistration> = []

    /// - Parameters:
    ///   - store: The store.
    ///   - write: Prints a line of output.
    ///   - writeError: Prints a line of error.
    public init(
        store: some StoreProtocol<Scoreboard.State, any ScoreboardAction>,
        write: @escaping @MainActor (String) -> Void,
        writeError: @escaping @MainActor (String) -> Void
    ) {
        self.store = store
        self.write = write
        self.writeError = writeError

        // Register PostScoreSuccess Effect
        let presentAlert = { @MainActor [weak self] (action: Scoreboard.PostScoreSuccess) in
            self?.presentAlert("Score posted: \(action.home)–\(action.away)")
        }
        let showAlert = Effect<any ScoreboardAction>(dispatch: true) { actions in
            actions.ofType(Scoreboard.PostScoreSuccess.self)
                .map { action -> any ScoreboardAction in
                    await presentAlert(action)
                    return Scoreboard.ResetScore()
                }
        }
        store.register(showAlert).store(in: &registrations)

        // Report PostScoreError, dispatching nothing.
        let presentError = { @MainActor [weak self] (action: Scoreboard.PostScoreError) in
            self?.presentError("error: the score was not posted: \(action.message)")
        }
        let showError = Effect<any ScoreboardAction>(dispatch: false) { actions in
            actions.ofType(Scoreboard.PostScoreError.self)
                .map { action -> any ScoreboardAction in
                    await presentError(action)
                    return action
                }
        }
        store.register(showError).store(in: &registrations)
    }

    /// The score line for the current state: `Home 1 – Away 0`.
    public var scoreLine: String {
        Scoreboard.getScoreLine(store.state)
    }

    public func homeScoreTapped() async {
        await store.dispatch(action: Scoreboard.HomeScore())
    }

    public func awayScoreTapped() async {
        await store.dispatch(action: Scoreboard.AwayScore())
    }

    public func resetTapped() async {
        await store.dispatch(action: Scoreboard.ResetScore())
    }

    public func postScoreTapped() async {
        let state = store.state
        await store.dispatch(action: Scoreboard.PostScore(
            home: Scoreboard.getHomeScoreString(state),
            away: Scoreboard.getAwayScoreString(state)
        ))
    }

    /// Handles `key` and prints the score line after it. Returns `false` for quit.
    public func handle(_ key: Key) async -> Bool {
        switch key {
        case .home: await homeScoreTapped()
        case .away: await awayScoreTapped()
        case .reset: await resetTapped()
        case .post: await postScoreTapped()
        case .quit: return false
        }
        write(scoreLine)
        return true
    }

    private func presentError(_ message: String) {
        failedPosts += 1
        writeError(message)
    }

    private func presentAlert(_ message: String) {
        showAlert = true
        alertMessage = message
        write(message)
    }
}
