import Lockstep

// The same app composed with the separate lifters, as the article "Composing features" shows
// them: each reducer and each middleware lifted on its own, for code that writes them apart.
// `appFeature` holds the same pieces; a test runs a store of each and compares them.

/// The list's reducer: its own changes, and each row's reducer on its row.
public let bookListReducer: InPlaceReducer<BookListState, BookListAction> = combineReducers(
    bookListCoreReducer,
    forEachReducer(bookRowReducer, state: \BookListState.rows, action: \BookListAction.row)
)

/// The list's middlewares: its own, and each row's, lifted to its rows.
@SideEffectBuilder<BookListState, BookListAction, ReadingListServices>
public var bookListMiddlewares: [SideEffect<BookListState, BookListAction, ReadingListServices>] {
    bookListMiddleware
    forEachMiddleware(bookRowMiddleware, state: \BookListState.rows, action: \BookListAction.row, embed: BookListAction.row)
}

/// The app's reducer: each feature's reducer lifted to its part of the state.
public let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
    scopeReducer(bookListReducer, state: \AppState.list, action: \AppAction.list),
    scopeReducer(searchReducer, state: \AppState.search, action: \AppAction.search),
    ifLetReducer(editorReducer, state: \AppState.editor, action: \AppAction.editor),
    presentationReducer
)

/// The app's middlewares: each feature's, lifted to its part of the state.
@SideEffectBuilder<AppState, AppAction, ReadingListServices>
public var appMiddlewares: [SideEffect<AppState, AppAction, ReadingListServices>] {
    scopeMiddleware(bookListMiddlewares, state: \AppState.list, action: \AppAction.list, embed: AppAction.list)
    scopeMiddleware(searchMiddleware, state: \AppState.search, action: \AppAction.search, embed: AppAction.search)
    ifLetMiddleware(editorMiddleware, state: \AppState.editor, action: \AppAction.editor, embed: AppAction.editor)
    presentationMiddleware
}
