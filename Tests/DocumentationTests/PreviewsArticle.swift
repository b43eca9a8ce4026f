// The previews of the Previews article, for the SwiftUI article's library app. The
// `PreviewProvider` form compiles everywhere (against the SwiftUIStandIns module on Linux); the
// `#Preview` macro exists only with Apple's SDKs, so those forms compile only there.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

#if canImport(SwiftUI)
#Preview("The library, two books") {
    LibraryView(store: Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer))
}

#Preview("The library, editing") {
    LibraryView(store: Store(
        state: LibraryState(rows: sampleBooks, editor: EditorState(bookID: 1, draft: "Dune Messiah")),
        reducer: libraryReducer, middlewares: [libraryMiddleware]))
}

#Preview("A favorite book") {
    @Previewable @State var store = Store(
        state: BookRowState(book: LibraryBook(id: 1, title: "Dune"), isFavorite: true), reducer: bookRowReducer)
    BookRowView(store: store.scope(state: \.self, action: { $0 }))
}
#endif

@MainActor
struct BookRowView_Previews: PreviewProvider {
    static let store = Store(
        state: BookRowState(book: LibraryBook(id: 1, title: "Dune"), isFavorite: true), reducer: bookRowReducer)

    static var previews: some View {
        BookRowView(store: store.scope(state: \.self, action: { $0 }))
    }
}
