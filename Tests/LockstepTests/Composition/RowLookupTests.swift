import IdentifiedCollections
import Lockstep
import Testing

/// How often rows were read by position and found by id, shared by the copies of a collection.
final class RowReads: Sendable {
    private let counts = Lock((elementReads: 0, idLookups: 0))

    var elementReads: Int { counts.withLock { $0.elementReads } }
    var idLookups: Int { counts.withLock { $0.idLookups } }

    func readElement() { counts.withLock { $0.elementReads += 1 } }
    func lookUpID() { counts.withLock { $0.idLookups += 1 } }
    func reset() { counts.withLock { $0 = (0, 0) } }
}

struct CountedRow: Identifiable, Sendable, Equatable {
    let id: Int
    var count = 0
}

enum CountedRowAction: Sendable, Equatable {
    case bump
}

/// Rows that count each element read; a linear search reads an element per row it passes.
struct LinearRows: MutableCollection, RandomAccessCollection, Sendable, Equatable {
    var rows: [CountedRow]
    let reads: RowReads

    init(count: Int, reads: RowReads) {
        rows = (1...count).map { CountedRow(id: $0) }
        self.reads = reads
    }

    var startIndex: Int { rows.startIndex }
    var endIndex: Int { rows.endIndex }

    subscript(position: Int) -> CountedRow {
        get {
            reads.readElement()
            return rows[position]
        }
        set { rows[position] = newValue }
    }

    static func == (lhs: LinearRows, rhs: LinearRows) -> Bool { lhs.rows == rhs.rows }
}

/// The same rows with an index from id to position, as `IdentifiedArray` has, declared to
/// Lockstep through `RowsIndexedByID`.
struct IndexedRows: MutableCollection, RandomAccessCollection, RowsIndexedByID, Sendable, Equatable {
    var rows: [CountedRow]
    private let positions: [Int: Int]
    let reads: RowReads

    init(count: Int, reads: RowReads) {
        let rows = (1...count).map { CountedRow(id: $0) }
        self.rows = rows
        positions = Dictionary(uniqueKeysWithValues: rows.indices.map { (rows[$0].id, $0) })
        self.reads = reads
    }

    var startIndex: Int { rows.startIndex }
    var endIndex: Int { rows.endIndex }

    subscript(position: Int) -> CountedRow {
        get {
            reads.readElement()
            return rows[position]
        }
        set { rows[position] = newValue }
    }

    func index(id: Int) -> Int? {
        reads.lookUpID()
        return positions[id]
    }

    static func == (lhs: IndexedRows, rhs: IndexedRows) -> Bool { lhs.rows == rhs.rows }
}

struct RowsState<Rows: Sendable & Equatable>: Sendable, Equatable {
    var rows: Rows
}

enum RowsAction: Sendable, Equatable {
    case row(id: Int, action: CountedRowAction)

    var row: (Int, CountedRowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

func countedRowReducer(_ row: inout CountedRow, _ action: CountedRowAction) {
    row.count += 1
}

func rowsReducer<Rows>(_: Rows.Type) -> InPlaceReducer<RowsState<Rows>, RowsAction>
where Rows: MutableCollection & RandomAccessCollection & Sendable & Equatable, Rows.Element == CountedRow {
    forEachReducer(countedRowReducer, state: \RowsState<Rows>.rows, action: \RowsAction.row)
}

@MainActor
@Suite("Rows found by id")
struct RowLookupTests {
    @Test("forEachReducer finds a row of a RowsIndexedByID collection through index(id:), reading no other row")
    func forEachReducerAsksTheIndex() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: IndexedRows(count: 1_000, reads: reads)), reducer: rowsReducer(IndexedRows.self))

        reads.reset()
        await store.dispatch(.row(id: 1_000, action: .bump))

        #expect(reads.idLookups == 1)
        #expect(reads.elementReads <= 1)
        #expect(store.state.rows.rows[999].count == 1)
        #expect(store.state.rows.rows.dropLast().allSatisfy { $0.count == 0 })
    }

    /// A row that counts each read of its id (`elementReads` of `reads`): a linear search reads
    /// the id of every row it passes; `IdentifiedArray`'s index reads none.
    struct IDCountingRow: Identifiable, Sendable, Equatable {
        let rowID: Int
        let reads: RowReads
        var count = 0

        var id: Int {
            reads.readElement()
            return rowID
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.rowID == rhs.rowID && lhs.count == rhs.count }
    }

    // Before Lockstep depended on swift-identified-collections, an IdentifiedArray was searched
    // like any other collection unless the app declared it RowsIndexedByID: the row action below
    // read about 1,000 ids.
    @Test("An IdentifiedArray's rows are found through its own index, with no declaration by the app")
    func identifiedArrayIsIndexed() async {
        let reads = RowReads()
        let rows = IdentifiedArray(uniqueElements: (1...1_000).map { IDCountingRow(rowID: $0, reads: reads) })
        let reducer: InPlaceReducer<RowsState<IdentifiedArrayOf<IDCountingRow>>, RowsAction> = forEachReducer(
            { (row: inout IDCountingRow, _: CountedRowAction) in row.count += 1 },
            state: \.rows, action: \RowsAction.row)
        let store = Store(state: RowsState(rows: rows), reducer: reducer)
        let rowStore = try! #require(store.scope(state: \.rows, id: 1_000, action: RowsAction.row))

        reads.reset()
        await store.dispatch(.row(id: 1_000, action: .bump))
        _ = rowStore.state

        #expect(reads.elementReads < 10)
        #expect(store.state.rows[id: 1_000]?.count == 1)
        #expect(rowStore.state.count == 1)
    }

    @Test("forEachReducer searches any other collection linearly, from the start")
    func forEachReducerSearchesOtherCollections() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: LinearRows(count: 1_000, reads: reads)), reducer: rowsReducer(LinearRows.self))

        reads.reset()
        await store.dispatch(.row(id: 10, action: .bump))
        let nearTheStart = reads.elementReads
        reads.reset()
        await store.dispatch(.row(id: 1_000, action: .bump))
        let atTheEnd = reads.elementReads

        #expect(nearTheStart >= 10 && nearTheStart < 20)
        #expect(atTheEnd >= 1_000)
        #expect(store.state.rows.rows[9].count == 1)
        #expect(store.state.rows.rows[999].count == 1)
    }

    @Test("forEachReducer reports a row action for an id the index does not have")
    func forEachReducerReportsUnknownID() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: IndexedRows(count: 3, reads: reads)), reducer: rowsReducer(IndexedRows.self))

        await withKnownIssue {
            await store.dispatch(.row(id: 7, action: .bump))
        } matching: { $0.description.contains("no row has the id 7") }
        #expect(store.state.rows.rows.allSatisfy { $0.count == 0 })
    }

    @Test("A row store of a RowsIndexedByID collection reads its row through index(id:)")
    func rowStoreAsksTheIndex() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: IndexedRows(count: 1_000, reads: reads)), reducer: rowsReducer(IndexedRows.self))

        let rowStore = store.scope(state: \.rows, id: 1_000, action: RowsAction.row)
        await rowStore?.dispatch(action: .bump)
        reads.reset()
        let row = rowStore?.state

        #expect(row == CountedRow(id: 1_000, count: 1))
        // One look-up to read the row, one to observe it (the first read in a store remembers
        // the value observed).
        #expect(reads.idLookups <= 2)
        #expect(reads.elementReads <= 2)
    }

    @Test("A row store of any other collection searches it linearly")
    func rowStoreSearchesOtherCollections() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: LinearRows(count: 1_000, reads: reads)), reducer: rowsReducer(LinearRows.self))

        let rowStore = store.scope(state: \.rows, id: 1_000, action: RowsAction.row)
        reads.reset()
        let row = rowStore?.state

        #expect(row == CountedRow(id: 1_000))
        #expect(reads.elementReads >= 1_000)
    }

    @Test("scope(forEach:) over a RowsIndexedByID collection reads each row a constant number of times")
    func scopeForEachIsLinear() async {
        let reads = RowReads()
        let rowCount = 500
        let store = Store(state: RowsState(rows: IndexedRows(count: rowCount, reads: reads)), reducer: rowsReducer(IndexedRows.self))

        reads.reset()
        let rowStores = store.scope(forEach: \.rows, action: RowsAction.row)
        let (idLookups, elementReads) = (reads.idLookups, reads.elementReads)

        #expect(rowStores.map(\.state.id) == Array(1...rowCount))
        #expect(idLookups <= rowCount)
        // A linear search per row would read rowCount * (rowCount + 1) / 2 elements.
        #expect(elementReads <= 3 * rowCount)
    }

    @Test("A row store handed out by scope(forEach:) follows its row, as the one scope(state:id:) returns does")
    func scopeForEachRowStoresFollowTheirRows() async {
        let reads = RowReads()
        let store = Store(state: RowsState(rows: IndexedRows(count: 3, reads: reads)), reducer: rowsReducer(IndexedRows.self))

        let rowStores = store.scope(forEach: \.rows, action: RowsAction.row)
        await rowStores[1].dispatch(action: .bump)

        #expect(store.scope(state: \.rows, id: 2, action: RowsAction.row)?.state.count == 1)
        #expect(rowStores.map(\.state.count) == [0, 1, 0])
    }

    @Test("forEachMiddleware finds the row of a RowsIndexedByID collection through index(id:)")
    func forEachMiddlewareAsksTheIndex() async {
        let reads = RowReads()
        let seen = Lock<[CountedRow]>([])
        let store = Store(
            state: RowsState(rows: IndexedRows(count: 1_000, reads: reads)), reducer: rowsReducer(IndexedRows.self)) {
            forEachMiddleware(
                { (row: CountedRow, _: CountedRowAction, _: Dispatcher<CountedRowAction>) in
                    seen.withLock { $0.append(row) }
                },
                state: \RowsState<IndexedRows>.rows, action: \RowsAction.row, embed: RowsAction.row)
        }

        reads.reset()
        await store.dispatch(.row(id: 1_000, action: .bump))

        #expect(seen.withLock { $0 } == [CountedRow(id: 1_000, count: 1)])
        #expect(reads.idLookups == 2)  // the reducer's look-up and the middleware's
        #expect(reads.elementReads <= 2)
    }
}
