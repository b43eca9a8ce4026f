/// A collection of identifiable rows that finds a row's position by its id without searching,
/// such as `IdentifiedArray` (from swift-identified-collections).
///
/// ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Rows.Element,RowAction>,_,_,_,_)``,
/// ``forEachMiddleware(_:state:action:embed:fileID:line:)-(Middleware<Rows.Element,RowAction,Services>,_,_,_,_,_)``,
/// ``StoreProtocol/scope(state:id:action:fileID:line:)->ChildStore<Rows.Element,RowAction>?`` and
/// ``StoreProtocol/scope(forEach:action:fileID:line:)->[ChildStore<Rows.Element,RowAction>]`` find rows by id. In a collection that
/// conforms, they ask ``index(id:)``: for an `IdentifiedArray` a hash look-up, so a row action
/// costs the same in 10,000 rows as in 100, and `scope(forEach:)` is linear in the rows. Any
/// other `RandomAccessCollection` of `Identifiable` rows (an `Array`) works as well, and is
/// searched linearly, from the start, on every look-up: a row action then costs in proportion
/// to the row's position, and `scope(forEach:)` in proportion to the square of the rows.
///
/// Lockstep depends on swift-identified-collections, as TCA does: `IdentifiedArray` conforms,
/// through its own `index(id:)`, with no declaration by the app. Another collection with an index
/// by id conforms by implementing ``index(id:)``.
///
/// The stores find the conformance at run time, so the functions above keep their signatures:
/// a collection that conforms is used through ``index(id:)`` wherever its type is known only
/// generically.
public protocol RowsIndexedByID: RandomAccessCollection, SendableMetatype where Element: Identifiable {
    /// The position of the row whose id is `id`, or `nil` when no row has it.
    ///
    /// - Parameter id: The id of the row.
    /// - Returns: The row's index.
    func index(id: Element.ID) -> Index?
}

/// How rows of a collection type are found by id: through ``RowsIndexedByID/index(id:)`` when
/// the type conforms, by a linear search otherwise. Made once per lifted reducer or middleware,
/// so the conformance is looked up once, not on every action (a row store makes one per read of
/// its row: a look-up in the runtime's cache of conformances, constant time).
struct RowLookup<Rows: Collection>: Sendable where Rows.Element: Identifiable {
    /// `Rows` as a ``RowsIndexedByID`` type, when it is one.
    private let indexedType: (any RowsIndexedByID.Type)?

    init() {
        indexedType = Rows.self as? any RowsIndexedByID.Type
    }

    /// Whether look-ups ask the collection instead of searching it.
    var isIndexed: Bool { indexedType != nil }

    /// The index of the row with `id` in `rows`, or `nil`.
    func index(_ rows: Rows, _ id: Rows.Element.ID) -> Rows.Index? {
        guard let indexedType else { return Self.linearSearch(rows, id) }
        return Self.index(rows, id, as: indexedType)
    }

    /// The row with `id` in `rows`, or `nil`.
    func row(_ id: Rows.Element.ID, in rows: Rows) -> Rows.Element? {
        index(rows, id).map { rows[$0] }
    }

    /// A look-up through `Indexed.index(id:)`, where `Indexed` is `Rows` itself (the cast of
    /// `Rows.self` to it succeeded), so each cast below is from a type to itself and succeeds.
    private static func index<Indexed: RowsIndexedByID>(
        _ rows: Rows, _ id: Rows.Element.ID, as _: Indexed.Type
    ) -> Rows.Index? {
        let indexed = rows as! Indexed
        return indexed.index(id: id as! Indexed.Element.ID).map { $0 as! Rows.Index }
    }

    /// The first index whose row has `id`, found by walking the indices (a loop rather than
    /// `firstIndex(where:)`, which in this generic code goes through the collection's
    /// witnesses for every element).
    static func linearSearch(_ rows: Rows, _ id: Rows.Element.ID) -> Rows.Index? {
        var index = rows.startIndex
        let end = rows.endIndex
        while index != end {
            if rows[index].id == id { return index }
            rows.formIndex(after: &index)
        }
        return nil
    }
}
