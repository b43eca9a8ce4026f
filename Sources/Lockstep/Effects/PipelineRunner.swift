/// Runs the pipeline of one registered effect: reads its output and dispatches it, until the pipeline ends,
/// throws, or is cancelled.
enum PipelineRunner {
    static func run<Action: Sendable>(
        _ effect: Effect<Action>,
        input: EffectInput<Action>,
        dispatchOutput: @Sendable (Action) async -> Void,
        finish: @Sendable (EffectFailure<String>?) async -> Void
    ) async {
        var failure: EffectFailure<String>?
        var outputs = effect.makeOutput(Actions(input: input)).makeAsyncIterator()
        input.pipelineDidStart()
        do {
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
        // Record the failure before letting go of the dispatches waiting on this effect, so a
        // dispatch that returns has its effect's failure in `failures` already. The pipeline's
        // iterator lets go of the action it read when it is released, so it must outlive that.
        await finish(failure)
        withExtendedLifetime(outputs) {}
        input.finish()
    }
}
