import Benchmark
import Lockstep
import Observation

// What a dispatch costs as an app grows: a large collection in state, views that read one
// field, and many middlewares that ignore the action.

/// A state with a large collection and two small fields.
struct Catalog: Sendable {
    var items: [Int]
    var counter = 0
    var other = 0
}

enum CatalogAction: Sendable {
    /// Adds one to the item at the index.
    case bump(Int)
    /// Adds one to `counter`.
    case increment
    /// Adds one to `other`.
    case bumpOther
}

/// The in-place reducer of the catalog: one element changes, nothing is copied.
@inline(never)
func catalogReducer(_ state: inout Catalog, _ action: CatalogAction) {
    switch action {
    case .bump(let index): state.items[index] &+= 1
    case .increment: state.counter &+= 1
    case .bumpOther: state.other &+= 1
    }
}

/// The same reducer in the value form, which copies the collection it changes.
@inline(never)
func catalogValueReducer(_ state: Catalog, _ action: CatalogAction) -> Catalog {
    var state = state
    catalogReducer(&state, action)
    return state
}

/// Holds a catalog the way a store does, for the in-place floor.
final class CatalogBox {
    var catalog: Catalog
    init(_ catalog: Catalog) { self.catalog = catalog }
}

/// A state whose observed field sits three levels deep, among siblings that change.
struct Profile: Sendable {
    struct Preferences: Equatable, Sendable {
        struct Theme: Equatable, Sendable {
            var accent = 0
            var isDark = 0
        }
        var theme = Theme()
        var fontSize = 0
    }
    var preferences = Preferences()
    var visits = 0
}

enum ProfileAction: Sendable {
    case bumpAccent
    case bumpIsDark
    case bumpFontSize
    case bumpVisits
}

@inline(never)
func profileReducer(_ state: inout Profile, _ action: ProfileAction) {
    switch action {
    case .bumpAccent: state.preferences.theme.accent &+= 1
    case .bumpIsDark: state.preferences.theme.isDark &+= 1
    case .bumpFontSize: state.preferences.fontSize &+= 1
    case .bumpVisits: state.visits &+= 1
    }
}

func registerAppScaleBenchmarks() {
    Benchmark("Baseline: in-place element write, 1,000,000 elements") { benchmark in
        let box = CatalogBox(Catalog(items: Array(repeating: 0, count: 1_000_000)))
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            catalogReducer(&box.catalog, .bump(index % 1_000))
        }
        benchmark.stopMeasurement()
        expect(box.catalog.items.prefix(1_000).reduce(0, &+), equals: benchmark.scaledIterations.count, in: benchmark)
    }

    for size in [1_000, 100_000, 1_000_000] {
        Benchmark("Lockstep: dispatch, in-place reducer, \(size.formatted()) elements") { @MainActor benchmark async in
            let store = Store(state: Catalog(items: Array(repeating: 0, count: size)), reducer: catalogReducer)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                await store.dispatch(.bump(index % 1_000))
            }
            benchmark.stopMeasurement()
            expect(store.state.items.prefix(1_000).reduce(0, &+), equals: benchmark.scaledIterations.count, in: benchmark)
        }
    }

    Benchmark(
        "Lockstep: dispatch, value reducer, 1,000,000 elements",
        configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 1_000)
    ) { @MainActor benchmark async in
        let store = Store(state: Catalog(items: Array(repeating: 0, count: 1_000_000)), reducer: catalogValueReducer)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            await store.dispatch(.bump(index % 1_000))
        }
        benchmark.stopMeasurement()
        expect(store.state.items.prefix(1_000).reduce(0, &+), equals: benchmark.scaledIterations.count, in: benchmark)
    }

    // An observer of every reduction is handed the state before the action: the store keeps it,
    // so the in-place change copies the collection, as a value reducer does.
    Benchmark(
        "Lockstep: dispatch, in-place reducer, 1,000,000 elements, with an action observer",
        configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 1_000)
    ) { @MainActor benchmark async in
        let observed = SendableCounter()
        let store = Store(
            state: Catalog(items: Array(repeating: 0, count: 1_000_000)), reducer: catalogReducer,
            observers: [ActionObserver { _ in observed.increment() }])
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            await store.dispatch(.bump(index % 1_000))
        }
        benchmark.stopMeasurement()
        expect(observed.value, equals: benchmark.scaledIterations.count, in: benchmark, "number of observed reductions")
    }

    registerInvalidationBenchmark(
        "Lockstep: dispatch, unrelated action, view reading store.counter",
        action: .bumpOther, expectedInvalidations: 0)
    registerInvalidationBenchmark(
        "Lockstep: dispatch, related action, view reading store.counter",
        action: .increment, expectedInvalidations: 1)

    registerNestedInvalidationBenchmark(
        "Lockstep: dispatch, sibling changes, view reading a field three levels deep",
        actions: [.bumpIsDark, .bumpFontSize, .bumpVisits], expectedInvalidations: 0)
    registerNestedInvalidationBenchmark(
        "Lockstep: dispatch, related action, view reading a field three levels deep",
        actions: [.bumpAccent], expectedInvalidations: 1)

    let twenty = Array(repeating: makeIgnoringStoreMiddleware(), count: 20)
    Benchmark("Lockstep: dispatch, twenty ignoring middlewares") { @MainActor benchmark async in
        let store = CounterStore(state: Counter(), reducer: counterReducer, middlewares: twenty)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
    }

    Benchmark("Lockstep ActorStore: dispatch, twenty ignoring middlewares") { benchmark async in
        let store = CounterActorStore(state: Counter(), reducer: counterReducer, middlewares: twenty)
        benchmark.startMeasurement()
        await dispatchRepeatedly(into: store, count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        let value = await store.state.value
        expect(value, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}

/// Registers a benchmark of a dispatch of `action` with a view that reads `store.counter`,
/// registered again before every dispatch as SwiftUI does after a render, and checks that the
/// view was invalidated `expectedInvalidations` times a dispatch.
private func registerInvalidationBenchmark(
    _ name: String, action: CatalogAction, expectedInvalidations: Int
) {
    Benchmark(name) { @MainActor benchmark async in
        let store = Store(state: Catalog(items: []), reducer: catalogReducer)
        let invalidations = SendableCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            withObservationTracking {
                _ = store.counter
            } onChange: {
                invalidations.increment()
            }
            await store.dispatch(action)
        }
        benchmark.stopMeasurement()
        expect(
            invalidations.value, equals: benchmark.scaledIterations.count * expectedInvalidations, in: benchmark,
            "number of invalidations")
    }
}

/// Registers a benchmark of dispatches of `actions`, in turn, with a view that reads
/// `store[\.preferences.theme.accent]`, registered again before every dispatch, and checks that
/// the view was invalidated `expectedInvalidations` times a dispatch.
private func registerNestedInvalidationBenchmark(
    _ name: String, actions: [ProfileAction], expectedInvalidations: Int
) {
    Benchmark(name) { @MainActor benchmark async in
        let store = Store(state: Profile(), reducer: profileReducer)
        let invalidations = SendableCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            withObservationTracking {
                _ = store[\.preferences.theme.accent]
            } onChange: {
                invalidations.increment()
            }
            await store.dispatch(actions[index % actions.count])
        }
        benchmark.stopMeasurement()
        expect(
            invalidations.value, equals: benchmark.scaledIterations.count * expectedInvalidations, in: benchmark,
            "number of invalidations")
    }
}
