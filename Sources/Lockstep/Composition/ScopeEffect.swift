/// Lifts a feature's effect to the app: it reads the feature actions extracted from the app's
/// actions, and the actions it emits are embedded in app actions.
///
/// ```swift
/// store.register(scopeEffect(searchEffect, action: \AppAction.search, embed: AppAction.search))
/// ```
///
/// - Parameters:
///   - effect: The feature's effect.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
/// - Returns: An effect of the app, with the feature effect's name and `dispatch` setting.
public func scopeEffect<Action: Sendable, FeatureAction: Sendable>(
    _ effect: Effect<FeatureAction>,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action
) -> Effect<Action> {
    Effect(name: effect.name, dispatch: effect.dispatch) { (actions: Actions<Action>) -> EffectOutput<Action> in
        EffectOutput(effect.makeOutput(Actions(actions.compactMap(action))).map(embed))
    }
}
