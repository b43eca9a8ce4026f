import Foundation
import Lockstep
import Observation
import ReduxModel
import Synchronization

// The regression gate of issue 29: ratios of dispatch costs against floors measured in the same
// process, median of several rounds, each with a bound. Prints every ratio and exits non-zero
// when one passes its bound. Run with `Benchmarks/scripts/gate` (a release build).
//
// Every figure is a time per operation; a round measures each pair back to back, and the ratio
// of a round is taken within that round, so a machine that gets slower or faster between rounds
// moves both sides of a ratio alike. The ratio printed is the median over the rounds.

// MARK: - Shared types

struct Counter: Sendable, Equatable {
    var value = 0
}

enum CounterAction: Sendable {
    case increment
}

/// The reducer of the dispatch ratios. Not inlined, so the floor pays for a call as a store does.
@inline(never)
func counterReducer(_ state: Counter, _ action: CounterAction) -> Counter {
    var state = state
    switch action {
    case .increment: state.value &+= 1
    }
    return state
}

/// What an app without a store writes its state into: the floor of a dispatch.
@Observable
final class CounterModel {
    var state = Counter()
}

/// A middleware that ignores every action, built behind a call the optimizer does not look
/// through.
@inline(never)
func makeIgnoringMiddleware<State, Action>() -> Lockstep.Middleware<State, Action, Void> {
    { _, _, _, _ in }
}

/// Stops the gate when a store did not reach the count it should: a measurement that lost work
/// measures nothing.
func check(_ value: Int, _ expected: Int, _ what: String) {
    guard value != expected else { return }
    FileHandle.standardError.write(Data("gate: \(what): expected \(expected), got \(value)\n".utf8))
    exit(2)
}

let clock = ContinuousClock()

func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

// MARK: - (a) and (b): dispatch against its floors, on the main actor

@MainActor
func observableWrite(_ count: Int) -> Double {
    let model = CounterModel()
    let start = clock.now
    for _ in 0..<count {
        model.state = counterReducer(model.state, .increment)
    }
    let elapsed = clock.now - start
    check(model.state.value, count, "observable writes")
    return nanoseconds(elapsed) / Double(count)
}

/// The same write, made by an awaited async function of the main actor that does not suspend:
/// what `await store.dispatch(action)` is before the store does anything. The cost of the call
/// itself (the callee's frame from the task allocator, the return through the async ABI) depends
/// on the CPU much more than the write does. On the 2-core AMD EPYC machine of 2026-11-27 the
/// plain write took 52.6 ns, the same write in an awaited call 92.1 ns and a no-middleware
/// dispatch 108.6 ns (5 rounds); on the Intel machines of earlier runs the whole dispatch took
/// 88 ns against a 76 ns plain write. Against the plain write, (a) was 1.13x to 1.16x on Intel
/// and 2.0x on AMD with no change to the store; against this floor it is 1.20x on AMD. (a) is
/// taken against this floor so that it measures the store, and moves with the machine only as
/// the store does.
@inline(never)
@MainActor
func awaitedObservableWrite(_ model: CounterModel) async {
    model.state = counterReducer(model.state, .increment)
}

@MainActor
func awaitedObservableWrites(_ count: Int) async -> Double {
    let model = CounterModel()
    let start = clock.now
    for _ in 0..<count {
        await awaitedObservableWrite(model)
    }
    let elapsed = clock.now - start
    check(model.state.value, count, "awaited observable writes")
    return nanoseconds(elapsed) / Double(count)
}

@MainActor
func mainActorYields(_ count: Int) async -> Double {
    let start = clock.now
    for _ in 0..<count {
        await Task.yield()
    }
    return nanoseconds(clock.now - start) / Double(count)
}

/// Dispatches into a store with `middlewares`. With `observed`, a view reads `store.value` before
/// every dispatch (a `withObservationTracking` observer registered again, as a view does after
/// every render), so that every dispatch yields for it (phase 2); without, nothing observes the
/// store, and a dispatch goes from the reducer to the middlewares.
@MainActor
func storeDispatches(
    _ count: Int, middlewares: [Lockstep.Middleware<Counter, CounterAction, Void>], observed: Bool = false
) async -> Double {
    let store = Store(state: Counter(), reducer: counterReducer, services: (), middlewares: middlewares)
    let renders = RenderCount()
    let start = clock.now
    for _ in 0..<count {
        if observed {
            withObservationTracking { _ = store.value } onChange: { renders.notified() }
        }
        await store.dispatch(.increment)
    }
    let elapsed = clock.now - start
    check(store.state.value, count, "Store dispatches")
    check(renders.count, observed ? count : 0, "Store observer notifications")
    return nanoseconds(elapsed) / Double(count)
}

/// The number of times an observer was notified.
final class RenderCount: Sendable {
    private let notifications = Atomic<Int>(0)

    func notified() {
        notifications.add(1, ordering: .relaxed)
    }

    var count: Int { notifications.load(ordering: .relaxed) }
}

/// The floor of (b): what a view's store cannot go under on the main actor, an observed write
/// (an observer registered again before each, as a view does) followed by a main-actor yield.
@MainActor
func observedWritesAndYields(_ count: Int) async -> Double {
    let model = CounterModel()
    let renders = RenderCount()
    let start = clock.now
    for _ in 0..<count {
        withObservationTracking { _ = model.state } onChange: { renders.notified() }
        model.state = counterReducer(model.state, .increment)
        await Task.yield()
    }
    let elapsed = clock.now - start
    check(model.state.value, count, "observed writes and yields")
    check(renders.count, count, "observed writes' notifications")
    return nanoseconds(elapsed) / Double(count)
}

/// Whether the deliberate slowdown `name` is on (`LOCKSTEP_GATE_SLOW_<name>=1`): CI runs the
/// gate with each and requires the bounds it names to fail.
func slowdown(_ name: String) -> Bool {
    ProcessInfo.processInfo.environment["LOCKSTEP_GATE_SLOW_" + name] == "1"
}

/// The middlewares of the twenty-middleware stores of (d), (g) and (h). With
/// `LOCKSTEP_GATE_SLOW_MIDDLEWARES=1`, the deliberate slowdown CI checks those bounds against,
/// each middleware suspends once, so that the runner must start a task for each, as a runner that
/// started a task per middleware did.
func storeMiddlewares(_ count: Int) -> [Lockstep.Middleware<Counter, CounterAction, Void>] {
    guard slowdown("MIDDLEWARES") else { return ignoringMiddlewares(count) }
    return (0..<count).map { _ in { _, _, _, _ in await Task.yield() } }
}

/// The ReSwift model with one pass-through middleware and one subscriber: the floor of (f).
func reduxOneMiddlewareDispatches(_ count: Int) -> Double {
    reduxDispatches(count, middlewares: 1)
}

// MARK: - (c) twenty features lifted with scopeMiddleware

struct Feature: Sendable, Equatable {
    var count = 0
}

enum FeatureAction: Sendable {
    case bump
}

struct Features: Sendable, Equatable {
    var features: [Feature]
}

enum FeaturesAction: Sendable {
    case feature(Int, FeatureAction)
}

@inline(never)
func featuresReducer(_ state: Features, _ action: FeaturesAction) -> Features {
    var state = state
    switch action {
    case .feature(let index, .bump): state.features[index].count &+= 1
    }
    return state
}

/// The side effects of `count` features, each lifted with `scopeMiddleware` to its own part of
/// the state and its own actions, composed in the store's `SideEffectBuilder`; each feature's
/// middleware ignores its actions.
///
/// With `LOCKSTEP_GATE_SLOW_FEATURES=1`, the deliberate slowdown CI checks the gate against:
/// each feature is a plain middleware that looks at the action itself, so the store calls all
/// twenty for every action, as it did before features carried their extractor; (c) must fail.
@SideEffectBuilder<Features, FeaturesAction, Void>
func featureMiddlewares(_ count: Int) -> [SideEffect<Features, FeaturesAction, Void>] {
    if ProcessInfo.processInfo.environment["LOCKSTEP_GATE_SLOW_FEATURES"] == "1" {
        for index in 0..<count {
            { (_: Features, action: FeaturesAction, _: Void, _: Dispatcher<FeaturesAction>) async in
                guard case .feature(index, _) = action else { return }
            } as Lockstep.Middleware<Features, FeaturesAction, Void>
        }
    } else {
        for index in 0..<count {
        scopeMiddleware(
            makeIgnoringMiddleware() as Lockstep.Middleware<Feature, FeatureAction, Void>,
            state: \Features.features[index],
            action: { (action: FeaturesAction) -> FeatureAction? in
                guard case .feature(index, let featureAction) = action else { return nil }
                return featureAction
            },
            embed: { FeaturesAction.feature(index, $0) })
        }
    }
}

@MainActor
func scopedStoreDispatches(_ count: Int, features: Int) async -> Double {
    let store = Store(
        state: Features(features: Array(repeating: Feature(), count: features)), reducer: featuresReducer,
        services: ()) { featureMiddlewares(features) }
    let start = clock.now
    for _ in 0..<count {
        await store.dispatch(.feature(0, .bump))
    }
    let elapsed = clock.now - start
    check(store.state.features[0].count, count, "Store dispatches to a feature")
    return nanoseconds(elapsed) / Double(count)
}

@concurrent
func scopedActorStoreDispatches(_ count: Int, features: Int) async -> Double {
    let store = ActorStore(
        state: Features(features: Array(repeating: Feature(), count: features)), reducer: featuresReducer,
        services: ()) { featureMiddlewares(features) }
    let start = clock.now
    for _ in 0..<count {
        await store.dispatch(.feature(0, .bump))
    }
    let elapsed = clock.now - start
    check(await store.state.features[0].count, count, "ActorStore dispatches to a feature")
    return nanoseconds(elapsed) / Double(count)
}

// MARK: - (d) twenty ignoring middlewares on ActorStore against the ReSwift model's twenty

@concurrent
func actorStoreDispatches(_ count: Int, middlewares: Int) async -> Double {
    let store = ActorStore(
        state: Counter(), reducer: counterReducer, services: (),
        middlewares: middlewares == 1 ? ignoringMiddlewares(1) : storeMiddlewares(middlewares))
    let start = clock.now
    for _ in 0..<count {
        await store.dispatch(.increment)
    }
    let elapsed = clock.now - start
    check(await store.state.value, count, "ActorStore dispatches")
    return nanoseconds(elapsed) / Double(count)
}

/// `count` middlewares that ignore every action, for the floors of (d).
func ignoringMiddlewares(_ count: Int) -> [Lockstep.Middleware<Counter, CounterAction, Void>] {
    (0..<count).map { _ in makeIgnoringMiddleware() }
}

/// Twenty calls of an ignoring middleware, one after another, in a nonisolated task: no store,
/// no actor, no task started. Not a gate: the floor that an `ActorStore` with twenty plain
/// middlewares cannot go under while a middleware is an `async` function, printed beside (d).
@concurrent
func sequentialMiddlewareCalls(_ count: Int, middlewares: Int) async -> Double {
    let calls = ignoringMiddlewares(middlewares)
    let dispatch = Dispatcher<CounterAction> { _ in }
    var state = Counter()
    let start = clock.now
    for _ in 0..<count {
        state = counterReducer(state, .increment)
        for call in calls {
            await call(state, .increment, (), dispatch)
        }
    }
    let elapsed = clock.now - start
    check(state.value, count, "sequential middleware calls")
    return nanoseconds(elapsed) / Double(count)
}

/// The floor of (d): twenty awaited calls of an ignoring middleware in one task started for the
/// dispatch, as phase 3 of an `ActorStore` with twenty plain middlewares must at least do.
func twentyCallsInOneTask(_ count: Int, middlewares: Int) async -> Double {
    let calls = ignoringMiddlewares(middlewares)
    let dispatch = Dispatcher<CounterAction> { _ in }
    var state = Counter()
    let start = clock.now
    for _ in 0..<count {
        state = counterReducer(state, .increment)
        let current = state
        await Task {
            for call in calls {
                await call(current, .increment, (), dispatch)
            }
        }.value
    }
    let elapsed = clock.now - start
    check(state.value, count, "twenty calls in one task")
    return nanoseconds(elapsed) / Double(count)
}

extension CounterAction: ReduxModel.Action {}

func reduxCounterReducer(_ action: any ReduxModel.Action, _ state: Counter?) -> Counter {
    let state = state ?? Counter()
    guard let action = action as? CounterAction else { return state }
    return counterReducer(state, action)
}

func passThroughReduxMiddleware(
    _ dispatch: @escaping ReduxModel.DispatchFunction,
    _ getState: @escaping () -> Counter?
) -> (_ next: @escaping ReduxModel.DispatchFunction) -> ReduxModel.DispatchFunction {
    { next in { action in next(action) } }
}

final class CountingSubscriber: StoreSubscriber {
    private(set) var received = 0
    func newState(state: Counter) { received &+= 1 }
}

/// The ReSwift model with `middlewares` pass-through middlewares and one subscriber, as the
/// suite's ReSwift baseline has.
func reduxDispatches(_ count: Int, middlewares: Int) -> Double {
    let store = ReduxModel.Store<Counter>(
        reducer: reduxCounterReducer, state: Counter(),
        middleware: Array(repeating: passThroughReduxMiddleware, count: middlewares))
    let subscriber = CountingSubscriber()
    store.subscribe(subscriber)
    let start = clock.now
    for _ in 0..<count {
        store.dispatch(CounterAction.increment)
    }
    let elapsed = clock.now - start
    check(store.state?.value ?? 0, count, "ReSwift-model dispatches")
    check(subscriber.received, count + 1, "ReSwift-model notifications")
    return nanoseconds(elapsed) / Double(count)
}

// MARK: - (e) rows: a row action through forEachReducer, and scope(forEach:)

struct Row: Identifiable, Sendable, Equatable {
    let id: Int
    var count = 0
}

enum RowAction: Sendable {
    case bump
}

/// A collection of rows that keeps an index from id to position, as `IdentifiedArray` does, and
/// says so to Lockstep as an app says it of `IdentifiedArray`: through `RowsIndexedByID`.
struct IdentifiedRows: MutableCollection, RandomAccessCollection, RowsIndexedByID, Sendable, Equatable {
    private(set) var rows: [Row]
    private var positions: [Int: Int]

    init(count: Int) {
        rows = (0..<count).map { Row(id: $0 * 7 + 3) }
        positions = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
    }

    var startIndex: Int { rows.startIndex }
    var endIndex: Int { rows.endIndex }

    subscript(position: Int) -> Row {
        get { rows[position] }
        set {
            precondition(newValue.id == rows[position].id, "a row keeps its id")
            rows[position] = newValue
        }
    }

    func index(id: Int) -> Int? {
        positions[id]
    }
}

struct RowsState: Sendable, Equatable {
    var rows: IdentifiedRows
}

enum RowsAction: Sendable {
    case row(id: Int, action: RowAction)

    var row: (Int, RowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

let rowsReducer: InPlaceReducer<RowsState, RowsAction> = forEachReducer(
    { (row: inout Row, _: RowAction) in row.count &+= 1 }, state: \RowsState.rows, action: \RowsAction.row)

/// Row actions for rows spread over the whole collection (each a different row, in an order
/// that jumps around), through `forEachReducer`, in a store with no middleware.
@MainActor
func rowActions(_ count: Int, rows: Int) async -> Double {
    let store = Store(state: RowsState(rows: IdentifiedRows(count: rows)), reducer: rowsReducer)
    let ids = (0..<count).map { step in ((step &* 7_919) % rows) * 7 + 3 }
    let start = clock.now
    for id in ids {
        await store.dispatch(.row(id: id, action: .bump))
    }
    let elapsed = clock.now - start
    check(store.state.rows.reduce(0) { $0 + $1.count }, count, "row actions")
    return nanoseconds(elapsed) / Double(count)
}

/// One `scope(forEach:)` over `rows` rows, as a list view calls it on every render, the child
/// stores made anew: each call's stores are released before the next call, outside the time
/// measured (what releasing them costs is the caller's, when it drops them). A first call, not
/// measured, fills the store's cache of child stores, so every size is measured in the same
/// steady state (the first call grows the cache; it would weigh a third of a sample over
/// 10,000 rows and a thirtieth of one over 1,000).
@MainActor
func scopeForEach(_ count: Int, rows: Int) -> Double {
    let store = Store(state: RowsState(rows: IdentifiedRows(count: rows)), reducer: rowsReducer)
    check(store.scope(forEach: \.rows, action: RowsAction.row).count, rows, "row stores of the first call")
    var made = 0
    var elapsed = Duration.zero
    for _ in 0..<count {
        let start = clock.now
        let rowStores = store.scope(forEach: \.rows, action: RowsAction.row)
        elapsed += clock.now - start
        made += rowStores.count
    }
    check(made, count * rows, "row stores")
    return nanoseconds(elapsed) / Double(count)
}

/// The floor of (e) `scope(forEach:)`: what making `rows` row stores costs the memory of the
/// machine, with no store. For each row, an object and a buffer of about the size of a row
/// store's state and link, kept in the array returned and weakly in a table by its key path and
/// id, as the child store cache keeps a row store. Its growth from
/// 1,000 to 10,000 rows (caches and allocators filling up) depends on the CPU, not on Lockstep.
final class FloorRow {
    let id: Int
    /// A second allocation of a few hundred bytes, as a row store brings its link and state.
    let payload: [Int]
    init(id: Int) {
        self.id = id
        self.payload = [Int](repeating: id, count: 24)
    }
}

struct FloorKey: Hashable {
    let path: AnyKeyPath
    let id: AnyHashable
}

struct WeakFloorRow {
    weak var row: FloorRow?
}

func rowObjectsFloor(_ count: Int, rows: Int) -> Double {
    var table: [FloorKey: WeakFloorRow] = [:]
    var made = 0
    var elapsed = Duration.zero
    for _ in 0..<count {
        let start = clock.now
        var objects: [FloorRow] = []
        objects.reserveCapacity(rows)
        for id in 0..<rows {
            let key = FloorKey(path: \RowsState.rows, id: AnyHashable(id))
            if let row = table[key]?.row {
                objects.append(row)
            } else {
                let row = FloorRow(id: id)
                table[key] = WeakFloorRow(row: row)
                objects.append(row)
            }
        }
        elapsed += clock.now - start
        made += objects.count
    }
    check(made, count * rows, "floor row objects")
    return nanoseconds(elapsed) / Double(count)
}

// MARK: - (i) a @Shared write with no test store against a Mutex write that notifies observers

/// A value behind a `Mutex` whose writes notify observers as an `@Observable` property's do: the
/// least a shared, observable box can cost.
final class ObservedMutexBox: Observable, Sendable {
    private let storage = Mutex(0)
    private let registrar = ObservationRegistrar()

    var value: Int { storage.withLock { $0 } }

    @inline(never)
    func increment() {
        registrar.willSet(self, keyPath: \.value)
        storage.withLock { $0 += 1 }
        registrar.didSet(self, keyPath: \.value)
    }
}

/// The floor of (i): `count` writes to an ``ObservedMutexBox``.
func observedMutexWrites(_ count: Int) -> Double {
    let box = ObservedMutexBox()
    let start = clock.now
    for _ in 0..<count {
        box.increment()
    }
    let elapsed = clock.now - start
    check(box.value, count, "observed Mutex writes")
    return nanoseconds(elapsed) / Double(count)
}

/// `count` writes to a `Shared` value, with no test store in the process: what an app pays.
func sharedWrites(_ count: Int) -> Double {
    let shared = Shared(value: 0)
    let start = clock.now
    for _ in 0..<count {
        shared.withLock { $0 += 1 }
    }
    let elapsed = clock.now - start
    check(shared.wrappedValue, count, "shared writes")
    return nanoseconds(elapsed) / Double(count)
}

// MARK: - The gate

/// A ratio, its bound, and how to compare them.
struct Gate {
    enum Kind { case atMost, atLeast }
    let name: String
    let kind: Kind
    let bound: Double
    /// Why the ratio is measured and printed but does not fail the gate: a goal the library does
    /// not meet yet, with the reason. `nil` for an enforced bound.
    var openBecause: String? = nil
    var samples: [Double] = []

    var median: Double {
        let sorted = samples.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var passes: Bool {
        switch kind {
        case .atMost: median <= bound
        case .atLeast: median >= bound
        }
    }
}

/// Runs a measurement once to warm it up, then finds an operation count that takes about
/// `target` (at least `minimum` operations), for the rounds to reuse.
@MainActor
func calibrate(target: Double = 30e6, minimum: Int = 1, _ measure: (Int) async -> Double) async -> Int {
    var count = minimum
    while true {
        let perOperation = await measure(count)
        if perOperation * Double(count) >= target / 4 || count >= 1 << 24 {
            return max(minimum, Int(target / max(perOperation, 0.001)))
        }
        count *= 4
    }
}

@MainActor
func runGate() async -> Bool {
    // More rounds make the medians steadier; the bounds stay as they are.
    let rounds = max(1, Int(ProcessInfo.processInfo.environment["LOCKSTEP_GATE_ROUNDS"] ?? "") ?? 11)
    let one: [Lockstep.Middleware<Counter, CounterAction, Void>] = [makeIgnoringMiddleware()]

    var gates = [
        // 1.75, not 1.5: on the AMD EPYC host of 2026-12-07, where every figure took two to three
        // times its earlier time, the code CI had passed (be8bce9) measured 1.41x (range 1.04x to
        // 2.14x, 11 rounds) and the head 1.45x to 1.53x (21 rounds: 1.47x), so at 1.5 the gate
        // passed or failed by the host's day. A dispatch that cost 20% more would fail it.
        Gate(name: "(a) no-middleware dispatch / (reducer + @Observable write in an awaited call)", kind: .atMost, bound: 1.75),
        // 0.7 since 2026-12-07 (medians 0.80x to 0.91x there, 0.82x in a full CI run whose range
        // was 0.13x to 1.31x: the main-actor yield took 130 µs against 50 to 60 µs before); 0.8,
        // not 0.9, before that: on the AMD EPYC machines CI runs on, a one-middleware dispatch costs about
        // 1.11 main-actor yields (0.90x, range 0.74x to 1.50x, idle, 11 rounds, at the head of
        // 2026-11-27), against 0.87 on the Intel machines of earlier runs (1.15x); at 0.9 the gate
        // passed or failed by the machine it ran on. A dispatch that cost 25% more would fail it.
        // The store yields only for a view, so both sides have one: an observer registered again
        // before every dispatch, and before every write of the floor.
        Gate(
            name: "(b) one-middleware dispatch, a view observing, throughput / (observed write + main-actor Task.yield) throughput",
            kind: .atLeast, bound: 0.7),
        // Enforced since the features are composed in a SideEffectBuilder: the store checks each
        // lifted feature's extractor right after the reducer and calls the one feature the action
        // is for, with no task for the nineteen others.
        Gate(name: "(c) Store: twenty scoped features / one, an action for one feature", kind: .atMost, bound: 1.2),
        Gate(name: "(c) ActorStore: twenty scoped features / one, an action for one feature", kind: .atMost, bound: 1.5),
        Gate(
            name: "(d) ActorStore twenty plain middlewares throughput / (twenty awaited calls + one task) throughput",
            kind: .atLeast, bound: 1.0,
            openBecause: "the floor's task hands the caller to another thread and back, which costs "
                + "anything from 2 µs on an idle machine to 30 µs on a loaded one, so the ratio says more "
                + "about the load than about the store; (h) and the sequential floor above measure the runner"),
        Gate(name: "(e) row action through forEachReducer, 10,000 rows / 100 rows", kind: .atMost, bound: 2.0),
        Gate(name: "(e) scope(forEach:), 10,000 rows / 1,000 rows, over the same growth of row objects in a weak table", kind: .atMost, bound: 1.3),
        // A dispatch a view observes pays a trip through the main actor's queue (the yield); one
        // nothing observes calls its middleware on the main thread in an immediate task, with no
        // trip at all: 0.04x to 0.07x. The bound was 0.75 while a headless dispatch still made one
        // trip (to call its middleware) against the observed one's two; since it makes none, a
        // store that yields anyway measures as much as the observed one, about 1.0 but anywhere
        // from 0.3 to 2.8 on these machines, and only a bound of 0.3 fails it every time.
        Gate(name: "(f) Store, one middleware: nothing observing / a view observing", kind: .atMost, bound: 0.3),
        Gate(name: "(g) Store, nothing observing: twenty plain middlewares / one", kind: .atMost, bound: 2.0),
        Gate(
            name: "(h) ActorStore: twenty plain middlewares / one", kind: .atMost, bound: 3.0,
            openBecause: "twenty middlewares start an immediate task a dispatch and leave the actor for "
                + "the global executor, which one middleware, awaited directly, does not; medians of 2.9x "
                + "to 3.9x in 21-round runs on the 2-core machine of 2026-12-07"),
        Gate(
            name: "(f') Store, one middleware, nothing observing / ReSwift model, one middleware", kind: .atMost,
            bound: 1.0,
            openBecause: "the middleware runs in an immediate task the dispatch starts and awaits (2.8x "
                + "on 2026-12-07, from 5.6x to 7x before), which keeps the seeds' concurrency contract; "
                + "ReSwift calls its middleware synchronously"),
        Gate(
            name: "(i) @Shared write, no test store / Mutex write that notifies observers", kind: .atMost,
            bound: 2.0,
            openBecause: "the write runs Shared's generic code unspecialized (the box sits behind an "
                + "existential, and none of it is inlinable): metadata look-ups are most of its samples "
                + "in perf; 6.3x (365 ns against 61 ns) on the 2-core machine of 2026-12-07, with no "
                + "process-wide lock or task-local look-up left on the path"),
    ]
    // The figures behind each ratio, per operation, for the report.
    var figures: [String: [Double]] = [:]

    print("Calibrating…")
    let writeCount = await calibrate { observableWrite($0) }
    let awaitedWriteCount = await calibrate { await awaitedObservableWrites($0) }
    let noMiddlewareCount = await calibrate { await storeDispatches($0, middlewares: []) }
    let yieldCount = await calibrate(minimum: 200) { await mainActorYields($0) }
    let observedYieldCount = await calibrate(minimum: 200) { await observedWritesAndYields($0) }
    let oneMiddlewareCount = await calibrate(minimum: 200) {
        await storeDispatches($0, middlewares: one, observed: true)
    }
    let headlessOneCount = await calibrate(minimum: 200) {
        await storeDispatches($0, middlewares: one, observed: slowdown("HEADLESS"))
    }
    let headlessTwentyCount = await calibrate(minimum: 200) {
        await storeDispatches($0, middlewares: storeMiddlewares(20))
    }
    let reduxOneCount = await calibrate { reduxOneMiddlewareDispatches($0) }
    let actorOneCount = await calibrate(minimum: 200) { await actorStoreDispatches($0, middlewares: 1) }
    let storeFeatureCount = await calibrate(minimum: 200) { await scopedStoreDispatches($0, features: 20) }
    let actorFeatureCount = await calibrate(minimum: 200) { await scopedActorStoreDispatches($0, features: 20) }
    let actorTwentyCount = await calibrate(minimum: 200) { await actorStoreDispatches($0, middlewares: 20) }
    let reduxTwentyCount = await calibrate { reduxDispatches($0, middlewares: 20) }
    let sequentialCount = await calibrate { await sequentialMiddlewareCalls($0, middlewares: 20) }
    let oneTaskCount = await calibrate(minimum: 200) { await twentyCallsInOneTask($0, middlewares: 20) }
    let rowCount = await calibrate(target: 20e6, minimum: 5) { await rowActions($0, rows: 10_000) }
    let smallRowCount = await calibrate(target: 20e6, minimum: 5) { await rowActions($0, rows: 100) }
    // About 150 ms a sample: a call over 10,000 rows takes tens of milliseconds, and a sample of
    // one call moves with whatever else the machine runs.
    let scopeCount = await calibrate(target: 150e6) { scopeForEach($0, rows: 10_000) }
    let smallScopeCount = await calibrate(target: 150e6) { scopeForEach($0, rows: 1_000) }
    let floorCount = await calibrate(target: 150e6) { rowObjectsFloor($0, rows: 10_000) }
    let smallFloorCount = await calibrate(target: 150e6) { rowObjectsFloor($0, rows: 1_000) }
    let sharedCount = await calibrate { sharedWrites($0) }
    let mutexCount = await calibrate { observedMutexWrites($0) }

    func record(_ gate: Int, _ label: String, _ numerator: Double, _ denominator: Double) {
        gates[gate].samples.append(numerator / denominator)
        figures[label + " numerator", default: []].append(numerator)
        figures[label + " denominator", default: []].append(denominator)
    }

    for round in 1...rounds {
        print("Round \(round) of \(rounds)")
        let write = observableWrite(writeCount)
        let awaitedWrite = await awaitedObservableWrites(awaitedWriteCount)
        let noMiddleware = await storeDispatches(noMiddlewareCount, middlewares: [])
        record(0, "a", noMiddleware, awaitedWrite)
        // Printed, not enforced: the same dispatch against the write with no call around it.
        figures["a plain write", default: []].append(write)

        let yield = await observedWritesAndYields(observedYieldCount)
        let oneMiddleware = await storeDispatches(oneMiddlewareCount, middlewares: one, observed: true)
        record(1, "b", yield, oneMiddleware)  // throughput ratio: time of the floor / time of the dispatch
        figures["b bare yield", default: []].append(await mainActorYields(yieldCount))

        let headlessOne = await storeDispatches(headlessOneCount, middlewares: one, observed: slowdown("HEADLESS"))
        let reduxOne = reduxOneMiddlewareDispatches(reduxOneCount)
        record(7, "f", headlessOne, oneMiddleware)
        record(10, "f'", headlessOne, reduxOne)
        let headlessTwenty = await storeDispatches(headlessTwentyCount, middlewares: storeMiddlewares(20))
        let headlessOneAgain = await storeDispatches(headlessOneCount, middlewares: one)
        record(8, "g", headlessTwenty, headlessOneAgain)

        let storeOne = await scopedStoreDispatches(storeFeatureCount, features: 1)
        let storeTwenty = await scopedStoreDispatches(storeFeatureCount, features: 20)
        record(2, "c store", storeTwenty, storeOne)

        let actorOne = await scopedActorStoreDispatches(actorFeatureCount, features: 1)
        let actorTwenty = await scopedActorStoreDispatches(actorFeatureCount, features: 20)
        record(3, "c actor", actorTwenty, actorOne)

        let actorMiddlewares = await actorStoreDispatches(actorTwentyCount, middlewares: 20)
        let oneTask = await twentyCallsInOneTask(oneTaskCount, middlewares: 20)
        record(4, "d", oneTask, actorMiddlewares)  // throughput ratio
        let actorOneMiddleware = await actorStoreDispatches(actorOneCount, middlewares: 1)
        record(9, "h", actorMiddlewares, actorOneMiddleware)
        figures["d redux", default: []].append(reduxDispatches(reduxTwentyCount, middlewares: 20))
        figures["d floor", default: []].append(await sequentialMiddlewareCalls(sequentialCount, middlewares: 20))

        let smallRows = await rowActions(smallRowCount, rows: 100)
        let rows = await rowActions(rowCount, rows: 10_000)
        record(5, "e rows", rows, smallRows)

        let smallScope = scopeForEach(smallScopeCount, rows: 1_000)
        let scope = scopeForEach(scopeCount, rows: 10_000)
        let smallFloor = rowObjectsFloor(smallFloorCount, rows: 1_000)
        let floor = rowObjectsFloor(floorCount, rows: 10_000)
        record(6, "e scope", scope / smallScope, floor / smallFloor)
        figures["e scope 10k", default: []].append(scope)
        figures["e scope 1k", default: []].append(smallScope)
        figures["e floor 10k", default: []].append(floor)
        figures["e floor 1k", default: []].append(smallFloor)

        let mutex = observedMutexWrites(mutexCount)
        let shared = sharedWrites(sharedCount)
        record(11, "i", shared, mutex)
    }

    func median(_ values: [Double]) -> Double {
        Gate(name: "", kind: .atMost, bound: 0, samples: values).median
    }
    func time(_ nanoseconds: Double) -> String {
        nanoseconds >= 1e6 ? String(format: "%.2f ms", nanoseconds / 1e6)
            : nanoseconds >= 1e3 ? String(format: "%.2f µs", nanoseconds / 1e3) : String(format: "%.1f ns", nanoseconds)
    }
    let labels = [
        ("a", "no-middleware dispatch", "reducer + @Observable write in an awaited call"),
        ("b", "observed write + main-actor Task.yield", "one-middleware dispatch, observed"),
        ("c store", "Store, twenty features", "Store, one feature"),
        ("c actor", "ActorStore, twenty features", "ActorStore, one feature"),
        ("d", "twenty awaited calls + one task", "ActorStore, twenty plain middlewares"),
        ("e rows", "row action, 10,000 rows", "row action, 100 rows"),
        ("e scope", "growth of scope(forEach:) from 1,000 to 10,000 rows", "growth of row objects in a weak table"),
        ("f", "Store, one middleware, nothing observing", "Store, one middleware, a view observing"),
        ("g", "Store, twenty middlewares", "Store, one middleware"),
        ("h", "ActorStore, twenty middlewares", "ActorStore, one middleware"),
        ("f'", "Store, one middleware, nothing observing", "ReSwift model, one pass-through middleware"),
        ("i", "@Shared write, no test store", "Mutex write that notifies observers"),
    ]
    print("\nMedian of \(rounds) rounds (ratios taken within each round):")
    var failed: [Gate] = []
    for (gate, (label, numerator, denominator)) in zip(gates, labels) {
        let comparison = gate.kind == .atMost ? "<=" : ">="
        let verdict = gate.openBecause != nil ? "open" : gate.passes ? "ok  " : "FAIL"
        print(String(format: "%@ %@: %.2fx (bound %@ %.2fx; range %.2fx to %.2fx)",
                     verdict, gate.name, gate.median, comparison, gate.bound,
                     gate.samples.min() ?? 0, gate.samples.max() ?? 0))
        if label == "e scope" {
            print(String(format: "       %@ %.2fx, %@ %.2fx", numerator, median(figures[label + " numerator"] ?? []),
                         denominator, median(figures[label + " denominator"] ?? [])))
        } else {
            print("       \(numerator) \(time(median(figures[label + " numerator"] ?? []))), \(denominator) \(time(median(figures[label + " denominator"] ?? [])))")
        }
        if label == "b" {
            print("       main-actor Task.yield alone \(time(median(figures["b bare yield"] ?? [])))")
        }
        if label == "a" {
            print("       reducer + @Observable write with no call around it \(time(median(figures["a plain write"] ?? [])))")
        }
        if label == "e scope" {
            print("       scope(forEach:) \(time(median(figures["e scope 10k"] ?? []))) for 10,000 rows, \(time(median(figures["e scope 1k"] ?? []))) for 1,000; row objects \(time(median(figures["e floor 10k"] ?? []))) and \(time(median(figures["e floor 1k"] ?? [])))")
        }
        if label == "d" {
            print("       ReSwift model, twenty pass-through middlewares (synchronous, no such contract) \(time(median(figures["d redux"] ?? [])))")
            print("       twenty sequential calls of an ignoring middleware, no task, no actor \(time(median(figures["d floor"] ?? [])))")
        }
        if let reason = gate.openBecause {
            print("       not enforced yet, \(gate.passes ? "though met in this run" : "not met"): \(reason)")
        } else if !gate.passes {
            failed.append(gate)
        }
    }
    // On standard output, after the table, so that the messages come last in a CI log.
    for gate in failed {
        let comparison = gate.kind == .atMost ? "at most" : "at least"
        print(String(
            format: "error: ratio %@ is %.2fx; its bound is %@ %.2fx", gate.name, gate.median, comparison, gate.bound))
    }
    return failed.isEmpty
}

let passed = await runGate()
exit(passed ? 0 : 1)
