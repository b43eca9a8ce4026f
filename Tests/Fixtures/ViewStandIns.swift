// Stand-ins for the few SwiftUI views and modifiers that the design documents' snippets are
// written with (`Text`, `Button`, `.task`, `.onAppear`), so that those snippets compile as written
// where SwiftUI does not exist. They show nothing: `appear()` does what showing a view does to the
// code under test. It runs the view's `onAppear` actions, then its `task` actions, and returns
// when they are done; a test taps a `Button` with `tap()`.

/// A view: its content, and what it does when it appears.
@MainActor
protocol View {
    associatedtype Body: View

    /// The view's content. A primitive view (`Text`, `Button`, a modified view) is its own body.
    var body: Body { get }

    /// Runs what the view does when it appears (its `onAppear`, then its `task` actions), and
    /// returns when they are done.
    func appear() async
}

extension View {
    func appear() async {
        await body.appear()
    }

    /// Runs `action` when the view appears, as SwiftUI's `task(_:)` does.
    func task(_ action: @escaping @MainActor () async -> Void) -> ModifiedView<Self> {
        ModifiedView(content: self, task: action)
    }

    /// Runs `action` when the view appears, as SwiftUI's `onAppear(perform:)` does.
    func onAppear(perform action: @escaping @MainActor () -> Void) -> ModifiedView<Self> {
        ModifiedView(content: self, onAppear: action)
    }
}

/// Text on the screen.
struct Text: View {
    let content: String

    init(_ content: String) {
        self.content = content
    }

    var body: Self { self }

    func appear() async {}
}

/// A button whose action a test runs with `tap()`.
struct Button: View {
    let title: String
    let action: @MainActor () -> Void

    init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.title = title
        self.action = action
    }

    var body: Self { self }

    func appear() async {}

    /// Runs the button's action, as a tap does.
    func tap() {
        action()
    }
}

/// A view with an action to run when it appears.
struct ModifiedView<Content: View>: View {
    let content: Content
    var onAppear: (@MainActor () -> Void)?
    var task: (@MainActor () async -> Void)?

    var body: Self { self }

    func appear() async {
        onAppear?()
        await content.appear()
        await task?()
    }
}
