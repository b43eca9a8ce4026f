import Benchmark
import Lockstep
import Observation

// "Cost follows what changed" for a field three parts deep: a view reads
// `store.settings.display.theme.accent` while each action changes one of sixteen other fields of
// the same parts. With every part an `ObservableState`, the view is never invalidated by them;
// a dispatch pays one comparison per field a view read.

struct NestedTheme: ObservableState, Sendable {
    var accent = 0
    var counters = Array(repeating: 0, count: 16)
}

struct NestedDisplay: ObservableState, Sendable {
    var theme = NestedTheme()
    var fontSize = 14
}

struct NestedSettings: ObservableState, Sendable {
    var display = NestedDisplay()
    var volume = 0
}

struct NestedAppState: Sendable {
    var settings = NestedSettings()
}

enum NestedAction: Sendable {
    /// Adds one to one of the sixteen counters next to `accent`.
    case bump(Int)
    /// Adds one to the font size, a part above the theme.
    case grow
    /// Adds one to `accent`, the field the view reads.
    case recolor
}

@inline(never)
func nestedReducer(_ state: inout NestedAppState, _ action: NestedAction) {
    switch action {
    case .bump(let index): state.settings.display.theme.counters[index % 16] &+= 1
    case .grow: state.settings.display.fontSize &+= 1
    case .recolor: state.settings.display.theme.accent &+= 1
    }
}

func registerNestedObservationBenchmarks() {
    registerNestedInvalidationBenchmark(
        "Lockstep: dispatch, changes next to a field three parts deep, view reading it",
        actions: { index in index % 17 == 16 ? .grow : .bump(index) }, expectedInvalidations: { _ in 0 })
    registerNestedInvalidationBenchmark(
        "Lockstep: dispatch, the field three parts deep changes every 4th action, view reading it",
        actions: { index in index % 4 == 0 ? .recolor : .bump(index) },
        expectedInvalidations: { iterations in (iterations + 3) / 4 })
}

/// Registers a benchmark of dispatches of `actions` with a view that reads the accent, tracked
/// again after each invalidation, as SwiftUI does when it renders the view again.
private func registerNestedInvalidationBenchmark(
    _ name: String,
    actions: @escaping @Sendable (Int) -> NestedAction,
    expectedInvalidations: @escaping @Sendable (Int) -> Int
) {
    Benchmark(name) { @MainActor benchmark async in
        let store = Store(state: NestedAppState(), reducer: nestedReducer)
        let invalidations = SendableCounter()
        var seen = -1
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if seen != invalidations.value {
                seen = invalidations.value
                withObservationTracking {
                    _ = store.settings.display.theme.accent
                } onChange: {
                    invalidations.increment()
                }
            }
            await store.dispatch(actions(index))
        }
        benchmark.stopMeasurement()
        expect(
            invalidations.value, equals: expectedInvalidations(benchmark.scaledIterations.count), in: benchmark,
            "number of invalidations")
    }
}
