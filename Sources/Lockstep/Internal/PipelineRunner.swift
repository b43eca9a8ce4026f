/// Runs the pipeline of one registered effect: reads its output and dispatches it, until the pipeline ends,
/// throws, or is cancelled.
enum PipelineRunner {
    static func run<Action: Sendable>(
        _ effect: Effect<Action>,
        input: EffectInput<Action>,
        dispatchOutput: @Sendable (Action) async -> Void,
        finish: @Sendable (EffectFailure?) async -> Void
    ) async {
        var failure: EffectFailure?
        do {
            var outputs = effect.makeOutput(Actions(input: input)).makeAsyncIterator()
            while let action = try await outputs.next() {
                if effect.dispatch {
                    await dispatchOutput(action)
                }
            }
        } catch is CancellationError {
            // Cancelled through its registration or by the store's release: not a failure.
        } catch {
            failure = EffectFailure(effect: effect.name, error: error)
        }
        input.finish()
        await finish(failure)
    }
}
