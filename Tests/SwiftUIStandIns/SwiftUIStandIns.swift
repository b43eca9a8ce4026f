// Stand-ins for the SwiftUI declarations that the SwiftUI article's views are written with, so
// that those views compile on Linux, where SwiftUI does not exist. A test-only module: no product
// ships it.
//
// Each stand-in has the shape of SwiftUI's declaration (the same names, labels, generic
// constraints and result builders), so code that compiles against them is written as it is for
// SwiftUI; none of them draws anything. Where SwiftUI exists, this module is empty, and the
// article's views compile against SwiftUI itself.
//
// SwiftUIBindings.swift, next to this file, is a symbolic link to Lockstep's SwiftUI helpers
// (`store.binding(...)`): this module compiles them against the stand-in `Binding`.
//
// LockstepFixtures has view stand-ins of its own (Tests/Fixtures/ViewStandIns.swift): fakes that
// tests run on every platform (`appear()` runs a view's `task`, `tap()` a button's action),
// which SwiftUI's types could not replace. These are the other kind: declarations with SwiftUI's
// shapes, replaced by SwiftUI itself where it exists, so they are a module of their own.
#if !canImport(SwiftUI)

// MARK: Views and their builder

/// A piece of user interface: SwiftUI's `View`.
@MainActor
public protocol View {
    /// The type of the view's content.
    associatedtype Body: View

    /// The view's content.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    /// A primitive view has no content of its own.
    public var body: Never { fatalError("A primitive view has no body") }
}

/// A view with no content, what an empty builder block makes.
public struct EmptyView: View {
    /// An empty view.
    public init() {}
    /// Primitive.
    public var body: Never { fatalError("EmptyView has no body") }
}

/// Several views in a row, what a builder block of several views makes.
public struct TupleView<T>: View {
    /// The views.
    public let value: T
    /// The views `value`.
    public init(_ value: T) { self.value = value }
    /// Primitive.
    public var body: Never { fatalError("TupleView has no body") }
}

/// One of two views, what an `if`/`else` or a `switch` in a builder makes.
public struct ConditionalContent<TrueContent: View, FalseContent: View>: View {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage
    /// Primitive.
    public var body: Never { fatalError("ConditionalContent has no body") }
}

extension Optional: View where Wrapped: View {
    /// Primitive: an `if` without `else` in a builder.
    public var body: Never { fatalError("Optional has no body") }
}

/// Builds views from a closure's statements: SwiftUI's `ViewBuilder`.
@MainActor
@resultBuilder
public enum ViewBuilder {
    /// An empty block.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// A block of one view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// A block of several views.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }

    /// An `if` without `else`.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    /// The first branch of an `if`/`else`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> ConditionalContent<TrueContent, FalseContent> {
        ConditionalContent(storage: .trueContent(first))
    }

    /// The second branch of an `if`/`else`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> ConditionalContent<TrueContent, FalseContent> {
        ConditionalContent(storage: .falseContent(second))
    }
}

// MARK: Apps and scenes

/// An app: SwiftUI's `App`.
@MainActor
public protocol App {
    /// The type of the app's scenes.
    associatedtype Body: Scene

    /// The app's scenes.
    @SceneBuilder var body: Body { get }

    /// Creates the app; SwiftUI calls it once.
    init()
}

/// Views that Xcode shows in its canvas: SwiftUI's `PreviewProvider`.
@MainActor
public protocol PreviewProvider {
    /// The type of the previews.
    associatedtype Previews: View

    /// The views to show.
    @ViewBuilder static var previews: Previews { get }
}

/// A part of an app's interface, such as a window: SwiftUI's `Scene`.
@MainActor
public protocol Scene {}

/// Builds scenes: SwiftUI's `SceneBuilder`, for one scene.
@MainActor
@resultBuilder
public enum SceneBuilder {
    /// A block of one scene.
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// A group of windows that show the same views: SwiftUI's `WindowGroup`.
public struct WindowGroup<Content: View>: Scene {
    let content: Content

    /// A window group of the views `content` builds.
    ///
    /// - Parameter content: The views of each window.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }
}

// MARK: State and bindings

/// A value a view owns: SwiftUI's `State` property wrapper.
@propertyWrapper
public struct State<Value> {
    private let box: Box

    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A state that starts with `wrappedValue`.
    ///
    /// - Parameter wrappedValue: The first value.
    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    /// The value.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

}

/// An observable object a view makes bindings of: SwiftUI's `Bindable`. `$store.title` is a
/// binding of the object's writable member `title`.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct Bindable<Value: AnyObject & Sendable> {
    /// The object.
    public var wrappedValue: Value

    /// The object's bindings: `$store`.
    public var projectedValue: Bindable<Value> { self }

    /// Wraps `wrappedValue`.
    ///
    /// - Parameter wrappedValue: The object.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Wraps `object`.
    ///
    /// - Parameter object: The object.
    public init(_ object: Value) {
        self.wrappedValue = object
    }

    /// The binding of the member at `keyPath`. As SwiftUI's, it reads and writes on the main
    /// actor, where views run.
    ///
    /// - Parameter keyPath: The member.
    public subscript<Member: Sendable>(
        dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member> & Sendable
    ) -> Binding<Member> {
        let object = wrappedValue
        return Binding(
            get: { MainActor.assumeIsolated { object[keyPath: keyPath] } },
            set: { newValue in MainActor.assumeIsolated { object[keyPath: keyPath] = newValue } })
    }
}

/// A value a view reads and writes that someone else owns: SwiftUI's `Binding`.
///
/// As SwiftUI's, its closures are `@Sendable` (SwiftUI's are also `@isolated(any)`, which a
/// synchronous stand-in could not call), so what they capture is checked as SwiftUI checks it.
@propertyWrapper
public struct Binding<Value>: Sendable {
    private let get: @Sendable () -> Value
    private let set: @Sendable (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    ///
    /// - Parameters:
    ///   - get: Returns the value.
    ///   - set: Writes a value.
    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// The value.
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    /// The binding itself.
    public var projectedValue: Binding<Value> { self }
}

// MARK: Controls and containers

/// Text on the screen: SwiftUI's `Text`.
public struct Text: View {
    /// The text shown.
    public let content: String

    /// Text showing `content`.
    ///
    /// - Parameter content: The text.
    public init<S: StringProtocol>(_ content: S) {
        self.content = String(content)
    }

    /// Primitive.
    public var body: Never { fatalError("Text has no body") }
}

/// A button: SwiftUI's `Button`.
public struct Button<Label: View>: View {
    /// What the button does when tapped.
    public let action: @MainActor () -> Void
    let label: Label

    /// A button whose label `label` builds.
    ///
    /// - Parameters:
    ///   - action: What the button does when tapped.
    ///   - label: The button's label.
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    /// Primitive.
    public var body: Never { fatalError("Button has no body") }
}

/// The role of a button: SwiftUI's `ButtonRole`.
public struct ButtonRole: Equatable, Sendable {
    let name: String

    /// A button that cancels.
    public static let cancel = ButtonRole(name: "cancel")
    /// A button that destroys data.
    public static let destructive = ButtonRole(name: "destructive")
}

extension Button {
    /// A button with a role, whose label `label` builds.
    ///
    /// - Parameters:
    ///   - role: The button's role, or `nil`.
    ///   - action: What the button does when tapped.
    ///   - label: The button's label.
    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.init(action: action, label: label)
    }
}

/// Whether a part of a view is shown: SwiftUI's `Visibility`.
public enum Visibility: Hashable, Sendable {
    /// As the platform decides.
    case automatic
    /// Shown.
    case visible
    /// Hidden.
    case hidden
}

extension Button where Label == Text {
    /// A button labeled with `title`.
    ///
    /// - Parameters:
    ///   - title: The button's label.
    ///   - action: What the button does when tapped.
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

/// A text field: SwiftUI's `TextField`.
public struct TextField: View {
    let title: String
    /// The text being edited.
    public let text: Binding<String>

    /// A text field that edits `text`, with `title` as its placeholder.
    ///
    /// - Parameters:
    ///   - title: The placeholder.
    ///   - text: The text being edited.
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.title = String(title)
        self.text = text
    }

    /// Primitive.
    public var body: Never { fatalError("TextField has no body") }
}

/// A switch: SwiftUI's `Toggle`.
public struct Toggle: View {
    let title: String
    /// Whether it is on.
    public let isOn: Binding<Bool>

    /// A switch labeled `title` that edits `isOn`.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - isOn: Whether it is on.
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {
        self.title = String(title)
        self.isOn = isOn
    }

    /// Primitive.
    public var body: Never { fatalError("Toggle has no body") }
}

/// Views side by side: SwiftUI's `HStack`.
public struct HStack<Content: View>: View {
    let content: Content

    /// The views `content` builds, side by side.
    ///
    /// - Parameter content: The views.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive.
    public var body: Never { fatalError("HStack has no body") }
}

/// A scrolling list of rows: SwiftUI's `List`.
public struct List<Content: View>: View {
    let content: Content

    /// A list of the rows `content` builds.
    ///
    /// - Parameter content: The rows.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive.
    public var body: Never { fatalError("List has no body") }
}

/// A view per element of a collection of identifiable elements: SwiftUI's `ForEach`.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    /// The elements.
    public let data: Data
    /// Makes the view of an element.
    public let content: (Data.Element) -> Content

    /// Views of `data`'s elements, each identified by its `id`.
    ///
    /// - Parameters:
    ///   - data: The elements.
    ///   - content: Makes the view of an element.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where Data.Element: Identifiable, ID == Data.Element.ID {
        self.data = data
        self.content = content
    }

    /// Primitive.
    public var body: Never { fatalError("ForEach has no body") }
}

/// A stack of screens with a root: SwiftUI's `NavigationStack`.
public struct NavigationStack<Data, Root: View>: View {
    let root: Root
    let path: Binding<Data>?

    /// A navigation stack whose screens above the root are the values of `path`.
    ///
    /// - Parameters:
    ///   - path: The values of the screens pushed on the root, bottom first.
    ///   - root: The root view.
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where Data: MutableCollection & RandomAccessCollection & RangeReplaceableCollection, Data.Element: Hashable {
        self.path = path
        self.root = root()
    }

    /// Primitive.
    public var body: Never { fatalError("NavigationStack has no body") }
}

extension NavigationStack where Data == [Never] {
    /// A navigation stack that manages its own path.
    ///
    /// - Parameter root: The root view.
    public init(@ViewBuilder root: () -> Root) {
        self.path = nil
        self.root = root()
    }
}

// MARK: Modifiers

/// A view with a modifier applied: what the stand-in modifiers return.
public struct ModifiedContent<Content: View, Modifier>: View {
    /// The view.
    public let content: Content
    /// The modifier's settings.
    public let modifier: Modifier

    /// Primitive.
    public var body: Never { fatalError("ModifiedContent has no body") }
}

/// The settings of a `sheet(item:onDismiss:content:)`.
public struct SheetModifier<Item: Identifiable, SheetContent: View> {
    /// The presented item, `nil` while no sheet is shown.
    public let item: Binding<Item?>
    /// Makes the sheet's view.
    public let content: (Item) -> SheetContent
}

/// The settings of an `alert(_:isPresented:actions:message:)`.
public struct AlertModifier<Actions: View, Message: View> {
    /// The alert's title.
    public let title: String
    /// Whether the alert is shown.
    public let isPresented: Binding<Bool>
    /// The alert's buttons.
    public let actions: Actions
    /// The alert's message.
    public let message: Message
}

/// The settings of an `alert(_:isPresented:presenting:actions:message:)` or a
/// `confirmationDialog(_:isPresented:titleVisibility:presenting:actions:message:)`.
public struct PresentingModifier<T, Actions: View, Message: View> {
    /// The title.
    public let title: Text
    /// Whether the alert or dialog is shown.
    public let isPresented: Binding<Bool>
    /// The value shown, `nil` while nothing is.
    public let data: T?
    /// Makes the buttons of a value.
    public let actions: (T) -> Actions
    /// Makes the message of a value.
    public let message: (T) -> Message
}

/// The settings of a `navigationDestination(item:destination:)`.
public struct ItemDestinationModifier<Item, Destination: View> {
    /// The pushed item, `nil` while nothing is pushed.
    public let item: Binding<Item?>
    /// Makes the pushed view.
    public let destination: (Item) -> Destination
}

/// The settings of a `navigationDestination(for:destination:)`.
public struct NavigationDestinationModifier<Value: Hashable, Destination: View> {
    /// Makes the screen of a value of the path.
    public let destination: (Value) -> Destination
}

/// The settings of a `navigationTitle(_:)`.
public struct NavigationTitleModifier {
    /// The title.
    public let title: String
}

/// The settings of a `task(_:)`.
public struct TaskModifier {
    /// The work that runs while the view is shown.
    public let action: @MainActor () async -> Void
}

extension View {
    /// Presents a sheet while `item` is not `nil`, with the view `content` makes of it.
    ///
    /// - Parameters:
    ///   - item: The presented item; set to `nil` when the user dismisses the sheet.
    ///   - onDismiss: Runs when the sheet is dismissed.
    ///   - content: Makes the sheet's view.
    /// - Returns: The view with the sheet.
    public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> ModifiedContent<Self, SheetModifier<Item, Content>> {
        ModifiedContent(content: self, modifier: SheetModifier(item: item, content: content))
    }

    /// Presents a popover while `item` is not `nil`, with the view `content` makes of it.
    ///
    /// - Parameters:
    ///   - item: The presented item; set to `nil` when the user dismisses the popover.
    ///   - content: Makes the popover's view.
    /// - Returns: The view with the popover.
    public func popover<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> ModifiedContent<Self, SheetModifier<Item, Content>> {
        ModifiedContent(content: self, modifier: SheetModifier(item: item, content: content))
    }

    /// Presents a full-screen cover while `item` is not `nil` (iOS), with the view `content`
    /// makes of it.
    ///
    /// - Parameters:
    ///   - item: The presented item; set to `nil` when the user dismisses the cover.
    ///   - onDismiss: Runs when the cover is dismissed.
    ///   - content: Makes the cover's view.
    /// - Returns: The view with the cover.
    public func fullScreenCover<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> ModifiedContent<Self, SheetModifier<Item, Content>> {
        ModifiedContent(content: self, modifier: SheetModifier(item: item, content: content))
    }

    /// Pushes the view `destination` makes of `item` while it is not `nil`.
    ///
    /// - Parameters:
    ///   - item: The pushed item; set to `nil` when the user goes back.
    ///   - destination: Makes the pushed view.
    /// - Returns: The view with the destination.
    public func navigationDestination<Item, Destination: View>(
        item: Binding<Item?>,
        @ViewBuilder destination: @escaping (Item) -> Destination
    ) -> ModifiedContent<Self, ItemDestinationModifier<Item, Destination>> {
        ModifiedContent(content: self, modifier: ItemDestinationModifier(item: item, destination: destination))
    }

    /// Presents an alert while `isPresented` is true.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - isPresented: Whether the alert is shown; set to false when the user dismisses it.
    ///   - actions: The buttons.
    ///   - message: The message.
    /// - Returns: The view with the alert.
    public func alert<S: StringProtocol, Actions: View, Message: View>(
        _ title: S,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> Actions,
        @ViewBuilder message: () -> Message
    ) -> ModifiedContent<Self, AlertModifier<Actions, Message>> {
        ModifiedContent(
            content: self,
            modifier: AlertModifier(title: String(title), isPresented: isPresented, actions: actions(), message: message()))
    }

    /// Presents an alert for `data` while `isPresented` is true.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - isPresented: Whether the alert is shown; set to false when the user dismisses it.
    ///   - data: The value the alert shows.
    ///   - actions: Makes the buttons of the value.
    ///   - message: Makes the message of the value.
    /// - Returns: The view with the alert.
    public func alert<T, Actions: View, Message: View>(
        _ title: Text,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: @escaping (T) -> Actions,
        @ViewBuilder message: @escaping (T) -> Message
    ) -> ModifiedContent<Self, PresentingModifier<T, Actions, Message>> {
        ModifiedContent(
            content: self,
            modifier: PresentingModifier(
                title: title, isPresented: isPresented, data: data, actions: actions, message: message))
    }

    /// Presents a confirmation dialog for `data` while `isPresented` is true.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - isPresented: Whether the dialog is shown; set to false when the user dismisses it.
    ///   - titleVisibility: Whether the title is shown.
    ///   - data: The value the dialog shows.
    ///   - actions: Makes the buttons of the value.
    ///   - message: Makes the message of the value.
    /// - Returns: The view with the dialog.
    public func confirmationDialog<T, Actions: View, Message: View>(
        _ title: Text,
        isPresented: Binding<Bool>,
        titleVisibility: Visibility = .automatic,
        presenting data: T?,
        @ViewBuilder actions: @escaping (T) -> Actions,
        @ViewBuilder message: @escaping (T) -> Message
    ) -> ModifiedContent<Self, PresentingModifier<T, Actions, Message>> {
        ModifiedContent(
            content: self,
            modifier: PresentingModifier(
                title: title, isPresented: isPresented, data: data, actions: actions, message: message))
    }

    /// Shows the view `destination` makes for each value of type `data` on the path of the
    /// enclosing navigation stack.
    ///
    /// - Parameters:
    ///   - data: The type of the values.
    ///   - destination: Makes the screen of a value.
    /// - Returns: The view with the destination.
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type,
        @ViewBuilder destination: @escaping (D) -> C
    ) -> ModifiedContent<Self, NavigationDestinationModifier<D, C>> {
        ModifiedContent(content: self, modifier: NavigationDestinationModifier(destination: destination))
    }

    /// Sets the title of the screen in the enclosing navigation stack.
    ///
    /// - Parameter title: The title.
    /// - Returns: The view with the title.
    public func navigationTitle<S: StringProtocol>(_ title: S) -> ModifiedContent<Self, NavigationTitleModifier> {
        ModifiedContent(content: self, modifier: NavigationTitleModifier(title: String(title)))
    }

    /// Runs `action` while the view is shown.
    ///
    /// - Parameter action: The work.
    /// - Returns: The view with the work.
    public func task(_ action: @escaping @MainActor () async -> Void) -> ModifiedContent<Self, TaskModifier> {
        ModifiedContent(content: self, modifier: TaskModifier(action: action))
    }
}

#endif
