/// A side effect written as a transformation of the store's actions into new actions.
///
/// An effect receives the store's ``Actions``, picks the ones it reacts to, performs its work,
/// and returns the actions that report the results:
///
/// ```swift
/// static let postScore = Effect(dispatch: true) { actions in
///     actions
///         .ofType(PostScore.self)
///         .map { action in await postScore(action) }   // returns PostScoreSuccess or PostScoreError
/// }
///
/// let registration = store.register(Scoreboard.postScore)
/// ```
///
/// With `dispatch: true` the actions the effect returns are dispatched to the store; with
/// `dispatch: false` the effect runs for its side effects only and what it returns is dropped.
///
/// ## Dispatch waits for effects
///
/// `await store.dispatch(action)` returns only after every registered effect has finished
/// reacting to `action`: its pipeline has asked for the next action, and every action it emitted
/// meanwhile has been dispatched, with everything those actions caused in turn. For a pipeline of
/// operators that pull their input only when their output is pulled (`map`, `filter`,
/// `compactMap`, `flatMap`, ``Actions/ofType(_:)``, `prefix`), that is the
/// whole reaction to the action.
///
/// Operators that read their input ahead of their output (a buffer, a debounce, a throttle, a
/// `merge` of two branches) ask for the next action as soon as they have stored the current one.
/// For them, dispatch returns once the operator has taken the action; what they emit later is
/// dispatched when they emit it, as an action of its own that nobody awaits. Test such effects
/// with a test clock, or on their own with ``source(_:)->EffectOutput<Action>``.
///
/// An effect that reacts to an action it emits itself (a feedback loop) does not deadlock:
/// the waiting is tracked for the whole tree of actions a dispatch caused, not per effect.
///
/// A dispatch waits only for a reaction the effect starts for it. An effect that never reads the
/// store's actions (`Effect { _ in ticks.map { .tick } }`: a timer, notifications, a socket)
/// holds no dispatch: once its pipeline has started without making a reader of the actions, it
/// is not waited for. An action a pipeline holds for good (a `flatMap` into a stream that never
/// ends) holds the dispatch that sent it, until that dispatch's task is cancelled, and no other:
/// an action that reaches the effect while it is still reacting to another dispatch's action
/// does not hold its own dispatch, since nothing short of a clock tells a reaction held for good
/// from a slow one. The effect reads that action, in order, when it asks for the next one, and
/// dispatches what it emits for it then, as an action nobody awaits.
///
/// ## Failures and endings
///
/// An effect whose pipeline throws is stopped and its error is recorded in ``Store/failures``;
/// the store and its other effects keep working. A pipeline that ends stops the effect quietly.
/// Either way, dispatch no longer waits for it.
public struct Effect<Action: Sendable>: Sendable {
    /// Whether the actions the effect returns are dispatched to the store.
    public let dispatch: Bool

    /// Where the effect was created, `File.swift:line`, naming it in failure reports.
    public let name: String

    let makeOutput: @Sendable (Actions<Action>) -> EffectOutput<Action>

    /// Shared by the copies of one effect, so a store can tell the same effect registered twice
    /// from two effects made at the same place.
    let identity = EffectIdentity()

    /// Creates an effect from a function of the store's actions.
    ///
    /// `source` receives the store's ``Actions`` and returns the
    /// sequence of actions the effect emits.
    ///
    /// ```swift
    /// let logOut = Effect<AppAction>(dispatch: false) { actions in
    ///   actions
    ///     .filter { $0 == .logOutTapped }
    ///     .map { action in await session.clear(); return action }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dispatch: Whether the actions `source` returns are dispatched to the store. Pass
    ///     `false` for an effect that only performs side effects.
    ///   - fileID: The file that creates the effect, naming it in ``name``; leave the default.
    ///   - line: The line that creates the effect, naming it in ``name``; leave the default.
    ///   - source: Returns the effect's output actions, given the store's actions.
    public init<Output: AsyncSequence>(
        dispatch: Bool = true,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ source: @escaping @Sendable (_ actions: Actions<Action>) -> Output
    ) where Output.Element == Action, Output: SendableMetatype {
        self.dispatch = dispatch
        self.name = "\(fileID):\(line)"
        self.makeOutput = { actions in EffectOutput(source(actions)) }
    }

    /// Creates an effect with a given name, for effects lifted from another effect.
    init(
        name: String,
        dispatch: Bool,
        makeOutput: @escaping @Sendable (Actions<Action>) -> EffectOutput<Action>
    ) {
        self.dispatch = dispatch
        self.name = name
        self.makeOutput = makeOutput
    }

    /// Runs the effect on its own, on the actions of `actions`, and returns what it emits.
    ///
    /// This is how a test exercises an effect with no store: feed it actions, read its output.
    ///
    /// ```swift
    /// let output = Scoreboard.postScore.source([Scoreboard.PostScore(home: "0", away: "0")].async)
    /// var results = output.makeAsyncIterator()
    /// let result = try await results.next()
    /// #expect(result is Scoreboard.PostScoreSuccess)
    /// ```
    ///
    /// The effect reads `actions` as it needs them; its output ends when the effect's pipeline
    /// ends, which for most pipelines is when `actions` ends.
    ///
    /// - Parameter actions: The actions the effect reacts to.
    /// - Returns: The actions the effect emits, whatever the value of ``dispatch``.
    public func source<Input: AsyncSequence & Sendable>(
        _ actions: Input
    ) -> EffectOutput<Action> where Input.Element == Action, Input.Failure == Never {
        makeOutput(Actions(actions))
    }
}

/// The identity of one ``Effect`` value and its copies.
final class EffectIdentity: Sendable {}
