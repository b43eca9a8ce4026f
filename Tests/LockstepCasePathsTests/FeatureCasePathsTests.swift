import LockstepCasePathsTesting
import Testing

// The Feature lifts with case key paths: an app whose state is an enum of two screens, each a
// feature, composed with one `ifCaseLet` a screen, and a presented child lifted by `ifLet`.

private struct Greeter: Sendable {
    var greeting: @Sendable (String) -> String
}

private struct Services: Sendable {
    var greeter: Greeter
}

private struct SignIn: Equatable, Sendable {
    var name = ""
    var help: HelpState?
}

private struct HelpState: Equatable, Sendable {
    var page = 0
}

@CasePathable
private enum HelpAction: Equatable, Sendable {
    case next
}

@CasePathable
private enum SignInAction: Equatable, Sendable {
    case nameChanged(String)
    case submit
    case greeted(String)
    case help(PresentationAction<HelpAction>)
}

private struct Home: Equatable, Sendable {
    var greeting: String
}

@CasePathable
private enum Screen: Equatable, Sendable {
    case signIn(SignIn)
    case home(Home)
}

@CasePathable
private enum ScreenAction: Equatable, Sendable {
    case signIn(SignInAction)
    case home(HomeAction)
}

@CasePathable
private enum HomeAction: Equatable, Sendable {
    case signOut
}

private struct Shell: Equatable, Sendable {
    var help = HelpState()
}

@CasePathable
private enum ShellAction: Equatable, Sendable {
    case help(HelpAction)
}

private let helpFeature = Feature<HelpState, HelpAction, Void>(reducer: { state, _ in state.page += 1 })

private let signInFeature = Feature<SignIn, SignInAction, Greeter>(
    reducer: { state, action in
        if case .nameChanged(let name) = action { state.name = name }
    }
) {
    { state, action, greeter, dispatch in
        guard action == .submit else { return }
        await dispatch(.greeted(greeter.greeting(state.name)))
    } as Middleware<SignIn, SignInAction, Greeter>
}
.ifLet(state: \.help, action: \.help) { helpFeature }

private let homeFeature = Feature<Home, HomeAction, Void>(reducer: { _, _ in })

private let screenFeature = Feature<Screen, ScreenAction, Services>(reducer: { state, action in
    switch action {
    case .signIn(.greeted(let greeting)): state = .home(Home(greeting: greeting))
    case .home(.signOut): state = .signIn(SignIn())
    case .signIn, .home: break
    }
})
.ifCaseLet(\.signIn, action: \.signIn, services: \.greeter) { signInFeature }
.ifCaseLet(\.home, action: \.home) { homeFeature }

@MainActor
@Suite("Feature lifts with case key paths")
struct FeatureCasePathsTests {
    @Test("ifCaseLet lifts each screen once; the switch on the screen's own answer reports nothing")
    func screensSwitch() async {
        let store = TestStore(
            state: Screen.signIn(SignIn()), feature: screenFeature,
            services: Services(greeter: Greeter(greeting: { "Hello, \($0)" })))
        await store.send(.signIn(.nameChanged("Blob"))) { $0 = .signIn(SignIn(name: "Blob")) }
        await store.send(.signIn(.submit))
        await store.receive(.signIn(.greeted("Hello, Blob"))) { $0 = .home(Home(greeting: "Hello, Blob")) }
        await store.send(.home(.signOut)) { $0 = .signIn(SignIn()) }
    }

    @Test("ifLet with a case key path of presentation actions runs the child and closes it")
    func presentedChild() async {
        let store = TestStore(
            state: SignIn(help: HelpState()), feature: signInFeature, services: Greeter(greeting: { $0 }))
        await store.send(.help(.presented(.next))) { $0.help?.page = 1 }
        await store.send(.help(.dismiss)) { $0.help = nil }
    }

    @Test("scope with a case key path lifts a child to a part that is always there")
    func scopedChild() async {
        let feature = Feature<Shell, ShellAction, Void>(reducer: { _, _ in })
            .scope(state: \.help, action: \.help) { helpFeature }
        let store = TestStore(state: Shell(), feature: feature)
        await store.send(.help(.next)) { $0.help.page = 1 }
    }

    @Test("forEach with a case key path of a row case lifts a row feature to each row")
    func rowsLiftedByCase() async {
        let feature = Feature<Pages, PagesAction, Void>(reducer: { _, _ in })
            .forEach(state: \.pages, action: \.page) { pageFeature }
        let store = TestStore(state: Pages(pages: [Page(id: 1), Page(id: 2)]), feature: feature)
        await store.send(.page(id: 2, action: .next)) { $0.pages[1].help.page = 1 }
    }

    @Test("forEach with a case key path of stack actions lifts a screen feature to the stack")
    func stackLiftedByCase() async {
        let feature = Feature<Book, BookAction, Void>(reducer: { _, _ in })
            .forEach(state: \.path, action: \.path) { helpFeature }
        let store = TestStore(state: Book(), feature: feature)
        await store.send(.path(.push(HelpState()))) { $0.path[id: 0] = HelpState() }
        await store.send(.path(.element(id: 0, action: .next))) { $0.path[id: 0]?.page = 1 }
        await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    }
}

private struct Page: Equatable, Sendable, Identifiable {
    var id: Int
    var help = HelpState()
}

private struct Pages: Equatable, Sendable {
    var pages: [Page]
}

private let pageFeature = Feature<Page, HelpAction, Void>(reducer: { page, _ in page.help.page += 1 })

@CasePathable
private enum PagesAction: Equatable, Sendable {
    case page(id: Int, action: HelpAction)
}

private struct Book: Equatable, Sendable {
    var path = StackState<HelpState>()
}

@CasePathable
private enum BookAction: Equatable, Sendable {
    case path(StackAction<HelpState, HelpAction>)
}
