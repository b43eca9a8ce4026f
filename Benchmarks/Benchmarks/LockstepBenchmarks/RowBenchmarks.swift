import Benchmark
import Lockstep

// Rows found by id: a row action through forEachReducer and scope(forEach:), in a collection
// that finds a row by id through an index (as IdentifiedArray does, through RowsIndexedByID)
// and in a plain Array, which is searched linearly.

struct BenchmarkRow: Identifiable, Sendable, Equatable {
    let id: Int
    var count = 0
}

enum BenchmarkRowAction: Sendable {
    case bump
}

/// Rows with an index from id to position, declared to Lockstep as an app declares
/// `IdentifiedArray`.
struct IndexedBenchmarkRows: MutableCollection, RandomAccessCollection, RowsIndexedByID, Sendable {
    private(set) var rows: [BenchmarkRow]
    private let positions: [Int: Int]

    init(count: Int) {
        let rows = (0..<count).map { BenchmarkRow(id: $0 * 7 + 3) }
        self.rows = rows
        positions = Dictionary(uniqueKeysWithValues: rows.indices.map { (rows[$0].id, $0) })
    }

    var startIndex: Int { rows.startIndex }
    var endIndex: Int { rows.endIndex }

    subscript(position: Int) -> BenchmarkRow {
        get { rows[position] }
        set { rows[position] = newValue }
    }

    func index(id: Int) -> Int? { positions[id] }
}

struct RowsBenchmarkState<Rows: Sendable>: Sendable {
    var rows: Rows
}

enum RowsBenchmarkAction: Sendable {
    case row(id: Int, action: BenchmarkRowAction)

    var row: (Int, BenchmarkRowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

@MainActor
func rowStore<Rows>(_ rows: Rows) -> Store<RowsBenchmarkState<Rows>, RowsBenchmarkAction>
where Rows: MutableCollection & RandomAccessCollection & Sendable, Rows.Element == BenchmarkRow {
    Store(
        state: RowsBenchmarkState(rows: rows),
        reducer: forEachReducer(
            { (row: inout BenchmarkRow, _: BenchmarkRowAction) in row.count &+= 1 },
            state: \RowsBenchmarkState<Rows>.rows, action: \RowsBenchmarkAction.row))
}

func registerRowBenchmarks() {
    for count in [100, 10_000] {
        Benchmark("Lockstep: row action through forEachReducer, indexed rows, \(count.formatted()) rows") { @MainActor benchmark async in
            let store = rowStore(IndexedBenchmarkRows(count: count))
            benchmark.startMeasurement()
            for step in benchmark.scaledIterations {
                await store.dispatch(.row(id: ((step &* 7_919) % count) * 7 + 3, action: .bump))
            }
            benchmark.stopMeasurement()
            expect(store.state.rows.reduce(0) { $0 + $1.count }, equals: benchmark.scaledIterations.count, in: benchmark)
        }
    }

    Benchmark(
        "Lockstep: row action through forEachReducer, Array (linear search), 10,000 rows",
        configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 1_000)
    ) { @MainActor benchmark async in
        let store = rowStore((0..<10_000).map { BenchmarkRow(id: $0 * 7 + 3) })
        benchmark.startMeasurement()
        for step in benchmark.scaledIterations {
            await store.dispatch(.row(id: ((step &* 7_919) % 10_000) * 7 + 3, action: .bump))
        }
        benchmark.stopMeasurement()
        expect(store.state.rows.reduce(0) { $0 + $1.count }, equals: benchmark.scaledIterations.count, in: benchmark)
    }

    for count in [1_000, 10_000] {
        Benchmark(
            "Lockstep: scope(forEach:), indexed rows, \(count.formatted()) rows",
            configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 100)
        ) { @MainActor benchmark async in
            let store = rowStore(IndexedBenchmarkRows(count: count))
            var made = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                made += store.scope(forEach: \.rows, action: RowsBenchmarkAction.row).count
            }
            benchmark.stopMeasurement()
            expect(made, equals: benchmark.scaledIterations.count * count, in: benchmark, "number of row stores")
        }
    }
}
